// CONTRACT.md §5.3 and §3: a kernel failure of work queued on a stream is not
// the enqueueing call's result; hipStreamSynchronize returns it (once), and
// hipGetLastError has it afterwards.
#include "kmd/bo.hpp"
#include "kmd/device.hpp"
#include "sim_support.hpp"

#include <hip/hip_runtime.h>

#include <atomic>
#include <memory>

using namespace simtest;

namespace {
// Drops `bytes` at `ptr` from `dev`'s VM behind the API's back (GEM_VA CLEAR
// on the same VM, as a kernel that lost PTEs would): a queued copy from there
// faults.
void drop_mapping(int dev, const void *ptr, size_t bytes) {
    peerDeviceInfo info{};
    HIP_CHECK(peerGetDeviceInfo(dev, &info));
    std::unique_ptr<kmd::Device> kd;
    REQUIRE(kmd::Device::open(info.render_minor, kd).ok());
    REQUIRE(kmd::va_clear(*kd, reinterpret_cast<uintptr_t>(ptr), bytes).ok());
}
} // namespace

TEST_CASE("streams: a VM fault of a queued copy surfaces at hipStreamSynchronize "
          "(hipErrorIllegalAddress); the enqueue succeeded",
          "[spec][stream][kernel]") {
    const int dev = 0;
    HIP_CHECK(hipSetDevice(dev));
    DeviceBuffer src(dev, 4096, 5), dst(dev, 4096, 9);
    drop_mapping(dev, src.ptr, 4096);

    hipStream_t s = nullptr;
    HIP_CHECK(hipStreamCreate(&s));
    (void)hipGetLastError();
    HIP_CHECK(hipMemcpyAsync(dst.ptr, src.ptr, 4096, hipMemcpyDeviceToDevice, s));
    CHECK(hipPeekAtLastError() == hipSuccess);
    CHECK(hipStreamSynchronize(s) == hipErrorIllegalAddress);
    CHECK(hipGetLastError() == hipErrorIllegalAddress);
    HIP_CHECK(hipStreamSynchronize(s)); // reported once
    HIP_CHECK(hipStreamQuery(s));
    HIP_CHECK(hipStreamDestroy(s));
    // A fault is not a hang: the device's next work runs.
    DeviceBuffer a(dev, 4096, 7), b(dev, 4096, 0);
    HIP_CHECK(hipMemcpy(b.ptr, a.ptr, 4096, hipMemcpyDeviceToDevice));
    CHECK(first_diff(b.read(0, 4096), pattern(4096, 7)) == -1);
}

TEST_CASE("streams: a stream's jobs run in order (a fill, then a copy of it, on device 1's "
          "engine), and work for another device's engine in the same stream completes too",
          "[spec][stream]") {
    const int n = device_count();
    // The machine file says how many GPUs there are; with one there is no
    // second engine to order against.
    REQUIRE(int(expected_access().size()) == n);
    if (n < 2) return;
    // Stream on device 0; a fill on device 1's engine (the owner of y), then
    // a copy of y into pinned memory on the same engine (it must see the
    // fill's bytes), then a fill on device 0's engine (the stream waits for
    // device 1's jobs before it goes to another engine).
    HIP_CHECK(hipSetDevice(0));
    hipStream_t s = nullptr;
    HIP_CHECK(hipStreamCreate(&s));
    DeviceBuffer x(0, 1 << 20, 3), y(1, 1 << 20, 4);
    uint8_t *pinned = nullptr;
    HIP_CHECK(hipHostMalloc(reinterpret_cast<void **>(&pinned), 1 << 20, 0));
    HIP_CHECK(hipMemsetAsync(y.ptr, 0x3c, 1 << 20, s)); // device 1's engine
    HIP_CHECK(hipMemcpyAsync(pinned, y.ptr, 1 << 20, hipMemcpyDeviceToHost, s)); // device 1
    HIP_CHECK(hipMemsetAsync(x.ptr, 0x11, 1 << 20, s)); // device 0's engine
    HIP_CHECK(hipStreamSynchronize(s));
    CHECK(pinned[0] == 0x3c);
    CHECK(pinned[(1 << 20) - 1] == 0x3c);
    CHECK(x.read(0, 1)[0] == 0x11);
    HIP_CHECK(hipHostFree(pinned));
    HIP_CHECK(hipStreamDestroy(s));
}

namespace {
void keep_status(hipStream_t, hipError_t status, void *user) {
    static_cast<std::atomic<int> *>(user)->store(int(status));
}
} // namespace

TEST_CASE("streams: a host function after a faulting copy gets hipErrorIllegalAddress as its "
          "status; synchronize still returns the failure, once",
          "[spec][stream][kernel][callback]") {
    const int dev = 0;
    HIP_CHECK(hipSetDevice(dev));
    DeviceBuffer src(dev, 4096, 5), dst(dev, 4096, 9);
    drop_mapping(dev, src.ptr, 4096);

    hipStream_t s = nullptr;
    HIP_CHECK(hipStreamCreate(&s));
    std::atomic<int> status{-1};
    HIP_CHECK(hipMemcpyAsync(dst.ptr, src.ptr, 4096, hipMemcpyDeviceToDevice, s));
    HIP_CHECK(hipStreamAddCallback(s, keep_status, &status, 0));
    hipEvent_t ev = nullptr;
    HIP_CHECK(hipEventCreate(&ev));
    HIP_CHECK(hipEventRecord(ev, s));
    HIP_CHECK(hipEventSynchronize(ev)); // the work is done; its failure is the stream's
    CHECK(status.load() == int(hipErrorIllegalAddress));
    CHECK(hipStreamSynchronize(s) == hipErrorIllegalAddress);
    HIP_CHECK(hipStreamSynchronize(s));
    HIP_CHECK(hipEventDestroy(ev));
    HIP_CHECK(hipStreamDestroy(s));
}
