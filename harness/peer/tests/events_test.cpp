// CONTRACT.md §5.9: events, hipStreamWaitEvent and host functions on the
// stream machinery, on both kernel paths. On the DRM path a stream is held
// with hipStreamWaitValue32 on a pinned word so that queued work provably
// has not run when the host looks; the KFD path's stream work is
// synchronous (§7), where the same calls must give the same answers once the
// work is done.
#include "sim_support.hpp"

#include <hip/hip_runtime.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

using namespace simtest;

namespace {

bool kfd_path() {
    const char *p = peerKernelPath();
    return p && std::strcmp(p, "kfd") == 0;
}

// A pinned word a stream's engine waits on (DRM path only): later work of
// that device's engine cannot run before release().
struct Hold {
    uint32_t *word = nullptr;
    Hold() {
        HIP_CHECK(hipHostMalloc(reinterpret_cast<void **>(&word), sizeof(uint32_t), 0));
        *word = 0;
    }
    ~Hold() {
        release();
        (void)hipDeviceSynchronize();
        (void)hipHostFree(word);
    }
    void on(hipStream_t s) { HIP_CHECK(hipStreamWaitValue32(s, word, 1, hipStreamWaitValueEq)); }
    void release() { reinterpret_cast<std::atomic<uint32_t> *>(word)->store(1); }
};

struct Event {
    hipEvent_t e = nullptr;
    explicit Event(unsigned flags = hipEventDefault) {
        HIP_CHECK(hipEventCreateWithFlags(&e, flags));
    }
    ~Event() { (void)hipEventDestroy(e); }
    Event(const Event &) = delete;
    Event &operator=(const Event &) = delete;
};

struct Stream {
    hipStream_t s = nullptr;
    Stream() { HIP_CHECK(hipStreamCreate(&s)); }
    ~Stream() { (void)hipStreamDestroy(s); }
    Stream(const Stream &) = delete;
    Stream &operator=(const Stream &) = delete;
};

double host_ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

TEST_CASE("events: Query NotReady while the work before the record waits, Success once done; "
          "Synchronize waits; NotReady is not kept as the last error",
          "[spec][event]") {
    HIP_CHECK(hipSetDevice(0));
    constexpr size_t n = 1 << 20;
    DeviceBuffer src(0, n, 11), dst(0, n, 0);
    Stream s;
    Event ev;
    HIP_CHECK(hipEventQuery(ev.e)); // never recorded: complete
    HIP_CHECK(hipEventSynchronize(ev.e));
    (void)hipGetLastError();
    if (!kfd_path()) {
        Hold hold;
        hold.on(s.s);
        HIP_CHECK(hipMemcpyAsync(dst.ptr, src.ptr, n, hipMemcpyDeviceToDevice, s.s));
        HIP_CHECK(hipEventRecord(ev.e, s.s));
        CHECK(hipEventQuery(ev.e) == hipErrorNotReady);
        CHECK(hipGetLastError() == hipSuccess); // a state, not a failure
        std::thread later([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            hold.release();
        });
        HIP_CHECK(hipEventSynchronize(ev.e)); // returns only after the release
        later.join();
        HIP_CHECK(hipEventQuery(ev.e));
    } else {
        HIP_CHECK(hipMemcpyAsync(dst.ptr, src.ptr, n, hipMemcpyDeviceToDevice, s.s));
        HIP_CHECK(hipEventRecord(ev.e, s.s));
        HIP_CHECK(hipEventSynchronize(ev.e));
        HIP_CHECK(hipEventQuery(ev.e));
    }
    // Complete means the bytes landed, read without any other wait.
    std::vector<uint8_t> got(n);
    HIP_CHECK(hipMemcpyDtoH(got.data(), dst.ptr, n));
    CHECK(first_diff(got, pattern(n, 11)) == -1);
    // The null stream too.
    HIP_CHECK(hipMemsetAsync(dst.ptr, 0x5a, n, nullptr));
    HIP_CHECK(hipEventRecord(ev.e, nullptr));
    HIP_CHECK(hipEventSynchronize(ev.e));
    CHECK(dst.read(n - 1, 1)[0] == 0x5a);
}

TEST_CASE("events: ElapsedTime of a large copy is positive, at most the host's time around it, "
          "longer than an empty interval, and negative the other way round",
          "[spec][event]") {
    HIP_CHECK(hipSetDevice(0));
    constexpr size_t n = 64u << 20;
    DeviceBuffer src(0, n, 3), dst(0, n, 0);
    Stream s;
    Event start, stop, empty_a, empty_b;
    HIP_CHECK(hipStreamSynchronize(s.s));
    const auto t0 = std::chrono::steady_clock::now();
    HIP_CHECK(hipEventRecord(start.e, s.s));
    HIP_CHECK(hipMemcpyAsync(dst.ptr, src.ptr, n, hipMemcpyDeviceToDevice, s.s));
    HIP_CHECK(hipEventRecord(stop.e, s.s));
    HIP_CHECK(hipEventSynchronize(stop.e));
    const double host_ms = host_ms_since(t0);
    float ms = -1, back = 1;
    HIP_CHECK(hipEventElapsedTime(&ms, start.e, stop.e));
    HIP_CHECK(hipEventElapsedTime(&back, stop.e, start.e));
    INFO("elapsed " << ms << " ms, host " << host_ms << " ms, path " << peerKernelPath());
    CHECK(ms > 0.0f);
    // One SDMA engine moves at most a few tens of GB/s (and the simulator
    // no faster than memcpy): 64 MiB take well over 0.3 ms. Times taken at
    // the host calls instead of by the engine would see only the enqueue.
    CHECK(ms >= 0.3f);
    CHECK(ms <= host_ms + 0.01);
    CHECK(back == Approx(-ms).margin(1e-3));
    float same = -1;
    HIP_CHECK(hipEventElapsedTime(&same, start.e, start.e));
    CHECK(same == 0.0f);

    HIP_CHECK(hipEventRecord(empty_a.e, s.s));
    HIP_CHECK(hipEventRecord(empty_b.e, s.s));
    HIP_CHECK(hipEventSynchronize(empty_b.e));
    float empty = -1;
    HIP_CHECK(hipEventElapsedTime(&empty, empty_a.e, empty_b.e));
    INFO("empty interval " << empty << " ms");
    CHECK(empty >= 0.0f);
    CHECK(empty < ms);
    std::vector<uint8_t> tail = dst.read(n - 4096, 4096);
    std::vector<uint8_t> want = pattern(n, 3);
    CHECK(std::memcmp(tail.data(), want.data() + n - 4096, 4096) == 0);
}

TEST_CASE("events: argument errors in CONTRACT.md §5.9's order, kept as the last error",
          "[spec][event]") {
    HIP_CHECK(hipSetDevice(0));
    (void)hipGetLastError();
    hipEvent_t e = nullptr;
    CHECK(hipEventCreate(nullptr) == hipErrorInvalidValue);
    CHECK(hipGetLastError() == hipErrorInvalidValue);
    CHECK(hipEventCreateWithFlags(&e, 0x8) == hipErrorInvalidValue); // no such flag
    CHECK(hipEventCreateWithFlags(&e, hipEventInterprocess) == hipErrorInvalidValue);
    CHECK(hipEventCreateWithFlags(&e, hipEventReleaseToDevice | hipEventReleaseToSystem) ==
          hipErrorInvalidValue);
    CHECK(hipEventCreateWithFlags(&e, hipEventInterprocess | hipEventDisableTiming) ==
          hipErrorNotSupported);
    for (unsigned f : {unsigned(hipEventBlockingSync), unsigned(hipEventDisableSystemFence),
                       unsigned(hipEventReleaseToDevice), unsigned(hipEventReleaseToSystem)}) {
        CAPTURE(f);
        hipEvent_t ok = nullptr;
        HIP_CHECK(hipEventCreateWithFlags(&ok, f));
        HIP_CHECK(hipEventRecord(ok, nullptr));
        HIP_CHECK(hipEventSynchronize(ok));
        HIP_CHECK(hipEventDestroy(ok));
    }

    Event a, b, untimed(hipEventDisableTiming), never;
    float ms = 7;
    CHECK(hipEventRecord(nullptr, nullptr) == hipErrorInvalidHandle);
    CHECK(hipEventQuery(nullptr) == hipErrorInvalidHandle);
    CHECK(hipEventSynchronize(nullptr) == hipErrorInvalidHandle);
    CHECK(hipEventDestroy(nullptr) == hipErrorInvalidHandle);
    hipStream_t gone = nullptr;
    HIP_CHECK(hipStreamCreate(&gone));
    HIP_CHECK(hipStreamDestroy(gone));
    CHECK(hipEventRecord(a.e, gone) == hipErrorInvalidHandle);

    HIP_CHECK(hipEventRecord(a.e, nullptr));
    HIP_CHECK(hipEventRecord(b.e, nullptr));
    HIP_CHECK(hipEventRecord(untimed.e, nullptr));
    HIP_CHECK(hipEventSynchronize(b.e));
    HIP_CHECK(hipEventSynchronize(untimed.e));
    HIP_CHECK(hipEventQuery(untimed.e));
    CHECK(hipEventElapsedTime(nullptr, nullptr, nullptr) == hipErrorInvalidValue);
    CHECK(hipEventElapsedTime(nullptr, a.e, b.e) == hipErrorInvalidValue);
    CHECK(hipEventElapsedTime(&ms, nullptr, b.e) == hipErrorInvalidHandle);
    CHECK(hipEventElapsedTime(&ms, a.e, nullptr) == hipErrorInvalidHandle);
    CHECK(hipEventElapsedTime(&ms, a.e, untimed.e) == hipErrorInvalidHandle);
    CHECK(hipEventElapsedTime(&ms, untimed.e, untimed.e) == hipErrorInvalidHandle);
    CHECK(hipEventElapsedTime(&ms, a.e, never.e) == hipErrorInvalidHandle); // never recorded
    CHECK(hipEventElapsedTime(&ms, never.e, a.e) == hipErrorInvalidHandle);
    CHECK(ms == 7.0f); // not written by a failure
    HIP_CHECK(hipEventElapsedTime(&ms, a.e, b.e));
    CHECK(ms >= 0.0f);

    hipEvent_t dead = nullptr;
    HIP_CHECK(hipEventCreate(&dead));
    HIP_CHECK(hipEventDestroy(dead));
    CHECK(hipEventQuery(dead) == hipErrorInvalidHandle);
    CHECK(hipEventDestroy(dead) == hipErrorInvalidHandle);
    CHECK(hipEventElapsedTime(&ms, a.e, dead) == hipErrorInvalidHandle);
    CHECK(hipStreamWaitEvent(nullptr, dead, 0) == hipErrorInvalidHandle);
    CHECK(hipStreamWaitEvent(gone, a.e, 0) == hipErrorInvalidHandle);
    CHECK(hipStreamWaitEvent(nullptr, a.e, 1) == hipErrorInvalidValue);
    CHECK(hipGetLastError() == hipErrorInvalidValue);
    HIP_CHECK(hipStreamWaitEvent(nullptr, never.e, 0)); // nothing to wait for
    HIP_CHECK(hipStreamSynchronize(nullptr));

    if (device_count() > 1) {
        // (ROCm) start and stop made on different devices.
        HIP_CHECK(hipSetDevice(1));
        Event other;
        HIP_CHECK(hipEventRecord(other.e, nullptr));
        HIP_CHECK(hipEventSynchronize(other.e));
        CHECK(hipEventElapsedTime(&ms, a.e, other.e) == hipErrorInvalidHandle);
        HIP_CHECK(hipSetDevice(0));
    }
    if (!kfd_path()) {
        // Recorded but not complete: NotReady, after the handle and flag checks.
        Stream s;
        Hold hold;
        hold.on(s.s);
        HIP_CHECK(hipEventRecord(b.e, s.s));
        CHECK(hipEventElapsedTime(&ms, a.e, b.e) == hipErrorNotReady);
        CHECK(hipEventElapsedTime(&ms, a.e, untimed.e) == hipErrorInvalidHandle);
        hold.release();
        HIP_CHECK(hipEventSynchronize(b.e));
        HIP_CHECK(hipEventElapsedTime(&ms, a.e, b.e));
    }
}

TEST_CASE("hipStreamWaitEvent: a copy on another stream (of another device where there is one) "
          "queued after the wait sees the bytes of the copy recorded before the event",
          "[spec][event][stream]") {
    const int n = device_count();
    const int other = n > 1 ? 1 : 0;
    constexpr size_t bytes = 4u << 20;
    DeviceBuffer x(0, bytes, 21), z(other, bytes, 23);
    HIP_CHECK(hipSetDevice(0));
    Stream a;
    HIP_CHECK(hipSetDevice(other));
    Stream b;
    HIP_CHECK(hipSetDevice(0));
    Event ev(hipEventDisableTiming);
    if (kfd_path()) {
        // Synchronous streams (§7): the wait is satisfied at once.
        DeviceBuffer y(0, bytes, 22);
        HIP_CHECK(hipMemcpyAsync(y.ptr, x.ptr, bytes, hipMemcpyDeviceToDevice, a.s));
        HIP_CHECK(hipEventRecord(ev.e, a.s));
        HIP_CHECK(hipStreamWaitEvent(b.s, ev.e, 0));
        HIP_CHECK(hipMemcpyPeerAsync(z.ptr, other, y.ptr, 0, bytes, b.s));
        HIP_CHECK(hipStreamSynchronize(b.s));
        CHECK(first_diff(z.read(0, bytes), pattern(bytes, 21)) == -1);
        return;
    }
    // a (device 0, held) copies x into pinned memory; b copies the pinned
    // memory into z on `other`'s engine, which is free: only the wait keeps
    // b's copy from reading the pinned bytes before a's copy wrote them.
    uint8_t *pinned = nullptr;
    HIP_CHECK(hipHostMalloc(reinterpret_cast<void **>(&pinned), bytes, 0));
    std::memset(pinned, 0xcd, bytes);
    {
        Hold hold;
        hold.on(a.s);
        HIP_CHECK(hipMemcpyAsync(pinned, x.ptr, bytes, hipMemcpyDeviceToHost, a.s));
        HIP_CHECK(hipEventRecord(ev.e, a.s));
        HIP_CHECK(hipStreamWaitEvent(b.s, ev.e, 0));
        CHECK(hipStreamQuery(b.s) == hipErrorNotReady); // b waits for a's position
        std::thread later([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(150));
            hold.release();
        });
        HIP_CHECK(hipMemcpyAsync(z.ptr, pinned, bytes, hipMemcpyHostToDevice, b.s));
        HIP_CHECK(hipStreamSynchronize(b.s));
        later.join();
        HIP_CHECK(hipStreamSynchronize(a.s));
    }
    CHECK(first_diff(z.read(0, bytes), pattern(bytes, 21)) == -1);
    HIP_CHECK(hipHostFree(pinned));
}

namespace {

struct CallbackLog {
    std::mutex mu;
    std::vector<int> order;
    std::vector<hipStream_t> streams;
    std::vector<hipError_t> statuses;
    bool saw_copy = false;     // the first callback saw the earlier copy's bytes
    bool later_waited = false; // the later copy had not run when the first returned
    const uint8_t *copied = nullptr, *later = nullptr;
    std::vector<uint8_t> want;
};

void first_callback(hipStream_t stream, hipError_t status, void *user) {
    auto *log = static_cast<CallbackLog *>(user);
    if (log->copied) log->saw_copy = std::memcmp(log->copied, log->want.data(), 4096) == 0;
    // Give the engine time to run the later copy if it were not held back.
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (log->later) log->later_waited = log->later[0] == 0xee;
    std::lock_guard lock(log->mu);
    log->order.push_back(1);
    log->streams.push_back(stream);
    log->statuses.push_back(status);
}

void second_fn(void *user) {
    auto *log = static_cast<CallbackLog *>(user);
    std::lock_guard lock(log->mu);
    log->order.push_back(2);
}

} // namespace

TEST_CASE("host functions: run in order after the earlier work's bytes are visible, later work "
          "starts after they returned; the callback gets the stream and hipSuccess",
          "[spec][event][callback]") {
    HIP_CHECK(hipSetDevice(0));
    constexpr size_t bytes = 4096;
    DeviceBuffer src(0, bytes, 31), other(0, bytes, 0);
    Stream s;
    CallbackLog log;
    log.want = pattern(bytes, 31);
    if (!kfd_path()) {
        uint8_t *copied = nullptr, *later = nullptr;
        HIP_CHECK(hipHostMalloc(reinterpret_cast<void **>(&copied), bytes, 0));
        HIP_CHECK(hipHostMalloc(reinterpret_cast<void **>(&later), bytes, 0));
        std::memset(copied, 0, bytes);
        std::memset(later, 0xee, bytes);
        log.copied = copied;
        log.later = later;
        {
            Hold hold;
            hold.on(s.s);
            HIP_CHECK(hipMemcpyAsync(copied, src.ptr, bytes, hipMemcpyDeviceToHost, s.s));
            HIP_CHECK(hipStreamAddCallback(s.s, first_callback, &log, 0));
            HIP_CHECK(hipLaunchHostFunc(s.s, second_fn, &log));
            HIP_CHECK(hipMemsetAsync(other.ptr, 0x77, bytes, s.s));
            HIP_CHECK(hipMemcpyAsync(later, other.ptr, bytes, hipMemcpyDeviceToHost, s.s));
            CHECK(hipStreamQuery(s.s) == hipErrorNotReady);
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            {
                std::lock_guard lock(log.mu);
                CHECK(log.order.empty()); // the copy before them is held
            }
            hold.release();
            HIP_CHECK(hipStreamSynchronize(s.s));
        }
        CHECK(later[0] == 0x77); // the later work did run, after the callbacks
        CHECK(later[bytes - 1] == 0x77);
        HIP_CHECK(hipHostFree(later));
        HIP_CHECK(hipHostFree(copied));
        CHECK(log.saw_copy);
        CHECK(log.later_waited);
    } else {
        // KFD: async work is synchronous, so later work waits for the
        // functions on the host; they still run on the stream's thread.
        HIP_CHECK(hipStreamAddCallback(s.s, first_callback, &log, 0));
        HIP_CHECK(hipLaunchHostFunc(s.s, second_fn, &log));
        HIP_CHECK(hipMemsetAsync(other.ptr, 0x77, bytes, s.s));
        {
            std::lock_guard lock(log.mu);
            CHECK(log.order.size() == 2);
        }
        HIP_CHECK(hipStreamSynchronize(s.s));
        CHECK(other.read(0, 1)[0] == 0x77);
    }
    REQUIRE(log.order == std::vector<int>{1, 2});
    CHECK(log.streams[0] == s.s);
    CHECK(log.statuses[0] == hipSuccess);

    // The null stream: the callback is handed NULL, and synchronize waits for it.
    CallbackLog null_log;
    HIP_CHECK(hipStreamAddCallback(nullptr, first_callback, &null_log, 0));
    HIP_CHECK(hipStreamSynchronize(nullptr));
    REQUIRE(null_log.order.size() == 1);
    CHECK(null_log.streams[0] == nullptr);

    // An event recorded after a host function completes only after it ran.
    CallbackLog ev_log;
    Event ev;
    HIP_CHECK(hipLaunchHostFunc(s.s, second_fn, &ev_log));
    HIP_CHECK(hipEventRecord(ev.e, s.s));
    HIP_CHECK(hipEventSynchronize(ev.e));
    {
        std::lock_guard lock(ev_log.mu);
        CHECK(ev_log.order == std::vector<int>{2});
    }

    (void)hipGetLastError();
    CHECK(hipStreamAddCallback(s.s, nullptr, nullptr, 0) == hipErrorInvalidValue);
    CHECK(hipStreamAddCallback(s.s, first_callback, &log, 1) == hipErrorInvalidValue);
    CHECK(hipLaunchHostFunc(s.s, nullptr, nullptr) == hipErrorInvalidValue);
    hipStream_t gone = nullptr;
    HIP_CHECK(hipStreamCreate(&gone));
    HIP_CHECK(hipStreamDestroy(gone));
    CHECK(hipStreamAddCallback(gone, first_callback, &log, 0) == hipErrorInvalidHandle);
    CHECK(hipLaunchHostFunc(gone, second_fn, &log) == hipErrorInvalidHandle);
    CHECK(hipGetLastError() == hipErrorInvalidHandle);
}
