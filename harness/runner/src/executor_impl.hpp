// Private to the step interpreter: the Interpreter class, split over
// executor.cpp (the step table, device and peer-access steps) and one file
// per family of steps (executor_memory.cpp, executor_streams.cpp, ...).
#pragma once

#include "cases/expand.hpp"
#include "cases/hip_codes.hpp"
#include "cases/step_table.hpp"
#include "cases/topology.hpp"
#include "expected_contents.hpp"
#include "pattern_cache.hpp"
#include "rocm_steps.hpp"
#include "runner/workspace.hpp"
#include "runtime.hpp"

#include <peer/hip_peer.h>
#include <peer/peer_debug.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace harness::runner::detail {

using namespace harness::cases;

// Seed of the guard pattern, distinct from any fill a case chooses.
inline constexpr uint64_t kGuardSeed = 0x6a09e667f3bcc908ull;
inline constexpr int kUntouched = 0x5a5a5a5a;
// Staging, bounce and host read-back buffers are filled with this before
// every copy and check: a job that silently does nothing leaves it behind.
inline constexpr uint8_t kPoison = 0xdb;

inline uint64_t name_hash(const std::string &s) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char c : s)
        h = (h ^ c) * 0x100000001b3ull;
    return h;
}

// One allocation made by the case, and what it must contain.
struct Buffer {
    char *base = nullptr; // allocation start (before the leading guard)
    size_t alloc_bytes = 0;
    size_t guard = 0;
    size_t bytes = 0; // payload the case asked for
    int device = -1;
    bool live = false;
    bool payload_known = false;
    ExpectedContents expect; // whole allocation, guards included (set by the writer)
    // Host memory (executor_host.cpp): hipHostMalloc'ed, or pageable memory
    // of the case's own (mmap), possibly hipHostRegister'ed. Read back by the
    // CPU directly; device == -1.
    enum class Host { no, pinned, pageable } host = Host::no;
    bool registered = false;
    char *payload() const { return base + guard; }
};

struct StepError {
    std::string message;
};

struct KernelState; // executor_kernel.hpp: DRM files and objects of kernel_* steps

class Interpreter {
  public:
    // `ws` outlives the interpreter: the buffers' expected bytes go back to
    // it. `rt` is the HIP runtime the steps call (the harness's, or ROCm's in
    // a differential run).
    Interpreter(const Instance &in, const Topology &t, Workspace &ws, const Runtime &rt);
    // Releases a held stream and destroys the case's stream
    // (executor_streams.cpp); the kernel steps' DRM files close with kernel_.
    ~Interpreter();
    Interpreter(const Interpreter &) = delete;
    Interpreter &operator=(const Interpreter &) = delete;

    nlohmann::json run();

    // The member that runs a step of this kind (executor.cpp's step table);
    // nullptr for a kind it does not know.
    using StepFunction = std::string (Interpreter::*)(const Step &);
    static StepFunction step_function(StepKind kind);

  private:
    const Instance &in_;
    const Topology &topo_;
    Workspace &ws_;
    const Runtime &rt_;

    // Every HIP call of a step goes to the process's runtime: a member of
    // the same name per entry of PEER_RUNNER_HIP_CALLS hides the global
    // declaration inside the interpreter.
#define PEER_RUNNER_HIP_MEMBER(ret, name, params, args)                                            \
    ret name params const {                                                                        \
        return rt_.hip().name args;                                                                \
    }
    PEER_RUNNER_HIP_CALLS(PEER_RUNNER_HIP_MEMBER)
#undef PEER_RUNNER_HIP_MEMBER
    // The harness's debug API (peer_debug.h) exists only in its own runtime.
    bool harness_runtime() const {
        return rt_.kind() == RuntimeKind::harness;
    }

    // Each step's answer, for differential runs (differential.hpp): the code
    // of the call it checked, else "ok" / "failed", or why ROCm's runtime
    // could not take it.
    nlohmann::json answers_ = nlohmann::json::array();
    std::string answer_; // the step being executed
    // A code's name as both runtimes print it: the case language's name, or
    // the runtime's own (hipGetErrorName) for a code the cases never expect.
    std::string answer_name(hipError_t e) const {
        std::string n = hip_code_name(e);
        if (n.rfind("hipError(", 0) != 0) return n;
        const char *own = hipGetErrorName(e);
        return own && std::string(own).rfind("hipError", 0) == 0 ? own : n;
    }
    const Step *current_ = nullptr;
    // Set by a step that ROCm's runtime took only in part (an asynchronous
    // copy or fill ROCclr would run as its own kernel): the rest of the
    // instance is not compared.
    bool ends_comparison_ = false;
    // ROCm's runtime on the simulator: a copy or fill that ROCclr runs as its
    // own kernel (same-device copies, fills of device memory; hipMemset and
    // D2D hipMemcpy) cannot run there. When the step expects success it is
    // done through host copies instead and its answer is not comparable
    // (executor_rocm.cpp). true when it was.
    bool rocclr_fill(void *dst, int value, size_t n, bool async);
    bool rocclr_copy(void *dst, const void *src, size_t n, bool async);
    Buffer *device_buffer_at(const void *p);
    std::map<std::string, Buffer> buffers_;
    std::map<std::string, int64_t> sizes_;  // NAME.bytes
    std::set<std::pair<int, int>> enabled_; // (current device, peer) as this case enabled
    std::vector<uint8_t> host_scratch_ = std::vector<uint8_t>(64);
    std::unique_ptr<KernelState> kernel_;
    // Streams (executor_streams.cpp): the case's created stream, a handle
    // that was destroyed, and the pinned word stream_hold waits on.
    hipStream_t stream_ = nullptr;
    hipStream_t destroyed_stream_ = nullptr;
    uint32_t *hold_word_ = nullptr;

    // A buffer whose expected contents are gathered with the workspace's
    // memory and patterns.
    Buffer new_buffer() {
        Buffer b;
        b.expect = ExpectedContents(&ws_.expectations());
        return b;
    }
    // Bytes [at, at + n) of b's expected contents, as pieces (used before the
    // workspace's patterns are used again) or as bytes.
    GatheredRange expected_pieces(const Buffer &b, size_t at, size_t n) {
        return b.expect.gather(at, n, ws_.patterns());
    }
    std::vector<uint8_t> expected_bytes(const Buffer &b, size_t at, size_t n) {
        std::vector<uint8_t> out(n);
        b.expect.read(at, out.data(), n, ws_.patterns());
        return out;
    }
    // peerCpuWriteSpans of b's expected bytes [at, at + n) to the device.
    hipError_t write_expected(const Buffer &b, size_t at, size_t n);

    int64_t eval(const Expr &e) const {
        auto r = e.evaluate([&](const std::string &v) { return in_.lookup(v, sizes_); });
        if (auto *m = std::get_if<std::string>(&r))
            throw StepError{"expression '" + e.text() + "': " + *m};
        return std::get<int64_t>(r);
    }
    int64_t num(const Step &s, const char *name, int64_t fallback) const {
        const Arg *a = s.arg(name);
        return a ? eval(a->expr) : fallback;
    }
    std::string word(const Step &s, const char *name, const std::string &fallback) const {
        const Arg *a = s.arg(name);
        if (!a) return fallback;
        if (!a->word.empty() && a->word[0] == '$') return in_.words.at(a->word.substr(1));
        return a->word;
    }
    Buffer &buffer(const std::string &name) {
        auto it = buffers_.find(name);
        if (it == buffers_.end()) throw StepError{"buffer '" + name + "' was never allocated"};
        return it->second;
    }
    // A pointer operand: its address, and the buffer + payload offset behind it.
    struct Resolved {
        void *ptr = nullptr;
        Buffer *buf = nullptr;
        int64_t offset = 0;
    };
    Resolved resolve(const PointerArg &p) {
        Resolved r;
        switch (p.base) {
        case PointerArg::Base::null:
            return r;
        case PointerArg::Base::host:
            r.ptr = host_scratch_.data();
            return r;
        case PointerArg::Base::buffer:
            r.buf = &buffer(p.buffer);
            r.offset = eval(p.offset);
            // Device addresses are numbers to the host: integer arithmetic, so
            // an offset past the allocation (on purpose) is not host UB.
            r.ptr = reinterpret_cast<void *>(reinterpret_cast<uintptr_t>(r.buf->payload()) +
                                             static_cast<uintptr_t>(r.offset));
            return r;
        }
        return r;
    }
    std::string code_check(const Step &s, hipError_t got, const std::string &call) {
        if (answer_.rfind(kNotComparable, 0) != 0) answer_ = answer_name(got);
        if (static_cast<int>(got) == s.expect) return {};
        return fmt::format("{} returned {}, expected {}", call, hip_code_name(got), s.expect_name);
    }
    std::string set_current(int device) {
        hipError_t e = hipSetDevice(device);
        if (e != hipSuccess)
            return fmt::format("hipSetDevice({}) returned {} while preparing the step", device,
                               hip_code_name(e));
        return {};
    }

    // Placement: where the manifest says `importer` reaches
    // `exporter` directly (XGMI or legal PCIe P2P), importing the exporter's
    // buffers must leave them in VRAM; the exporter's per-file GTT usage
    // (fdinfo) must not grow. Runs after every successful Enable and alloc.
    struct Placement {
        bool known = false;
        uint64_t vram = 0, gtt = 0;
    };
    Placement placement_of(int device) const {
        Placement p;
        if (!harness_runtime()) return p; // fdinfo through the harness's own files
        p.known = peerGetDeviceMemoryUsage(device, &p.vram, &p.gtt) == hipSuccess;
        return p;
    }
    std::string placement_check(const Placement &before, int importer, int exporter,
                                const char *what) const {
        if (!before.known || importer == exporter || importer < 0 || exporter < 0 ||
            importer >= topo_.device_count || exporter >= topo_.device_count ||
            !topo_.can_access(importer, exporter))
            return {};
        const Placement after = placement_of(exporter);
        if (!after.known || after.gtt <= before.gtt) return {};
        return fmt::format("after {} device {}'s buffers moved to GTT ({} -> {} bytes in "
                           "fdinfo drm-memory-gtt); the manifest says device {} reaches device "
                           "{} directly ({}), so an imported buffer must stay in VRAM",
                           what, exporter, before.gtt, after.gtt, importer, exporter,
                           link_type_name(topo_.link_type(importer, exporter)));
    }

    // Only what a transfer of `bytes` between a and b can touch: the first
    // bytes of both staging buffers and of their bounce buffers (both slots).
    void poison(int a, int b, size_t bytes) const {
        if (!harness_runtime()) return; // ROCm's staging buffers are its own
        peerPoisonStaging(a, b, bytes < SIZE_MAX / 2 ? 2 * bytes : bytes, kPoison);
    }

    // One entry per successful memcpy_peer step: bytes, time on the clock
    // peerLastCopyTiming names, GB/s, the link and its nominal peak.
    nlohmann::json copies_ = nlohmann::json::array();
    int step_index_ = 0; // 1-based index of the step being executed
    void record_copy(int dst_dev, int src_dev);

    // Kernel events a step asked for (the kernel-log verdict ignores those).
    static constexpr unsigned kExpectVmFault = 1, kExpectReset = 2;
    unsigned expected_kernel_events_ = 0;

  public:
    unsigned expected_kernel_events() const {
        return expected_kernel_events_;
    }

  private:
    std::string provoke(const Step &s);
    std::string reset_device(int device);
    std::string copy_works(int device, const char *after);

    // Runs one step through the step table; a StepError becomes its failure.
    std::string execute(const Step &s);

    // Devices, peer access and the runner's own steps (executor.cpp).
    std::string set_device(const Step &s);
    std::string get_device(const Step &s);
    std::string get_device_count(const Step &s);
    std::string enable_peer_access(const Step &s);
    std::string disable_peer_access(const Step &s);
    std::string device_reset(const Step &s);
    std::string device_synchronize(const Step &s);
    std::string set_copy_packet_max(const Step &s);
    std::string error_name(const Step &s);
    std::string selftest_step(const Step &s);

    std::string alloc(const Step &s);
    std::string free_buffer(const Step &s);
    std::string fill(const Step &s);

    std::string can_access(const Step &s);

    std::string address_range(const Step &s);

    std::string expected_path(int dst_dev, int src_dev) const;

    std::string memcpy_peer(const Step &s);
    std::string memcpy_kind(const Step &s); // memcpy, memcpy_async
    std::string stream_step(const Step &s);
    std::string stream_of(const Step &s, hipStream_t &out);

    std::string verify(Buffer &b, const std::string &name);
    hipError_t compare_in_place(const Buffer &b, bool &differs);
    std::string describe_mismatch(Buffer &b, const std::string &name);
    std::string verify_step(const Step &s);

    // Pinned memory, memory info, async peer copies, stream lifetime and the
    // last error (executor_host.cpp); host buffers are released in the destructor.
    std::string memcpy_peer_async(const Step &s);
    std::string host_step(const Step &s);
    std::string host_get_device_pointer(const Step &s);
    std::string mem_get_info(const Step &s);
    std::string stream_lifetime(const Step &s);
    std::string last_error(const Step &s);
    void release_host_buffers();

    // hipMemset(Async) and the device queries (executor_device.cpp).
    std::string memset_bytes(const Step &s); // memset, memset_async
    std::string device_properties(const Step &s);
    std::string device_attribute(const Step &s);

    // Events, hipStreamWaitEvent and callbacks (executor_events.cpp): the
    // case's two events, a destroyed handle, and per stream handle the
    // callbacks queued and run (a callback's counter outlives it: the
    // destructor waits for every device before the interpreter goes).
    struct CallbackCount {
        std::atomic<int> queued{0}, ran{0};
    };
    std::map<std::string, hipEvent_t> events_;
    hipEvent_t destroyed_event_ = nullptr;
    std::map<hipStream_t, std::unique_ptr<CallbackCount>> callbacks_;
    std::string event_step(const Step &s);
    std::string event_of(const Step &s, const char *arg, hipEvent_t &out);
    std::string elapsed_time(const Step &s);
    std::string add_callback(const Step &s);
    // After a successful hipStreamSynchronize of `st`: its callbacks ran.
    std::string callbacks_ran(hipStream_t st, const std::string &name) const;
    void release_events_and_callbacks();

    std::string raw_read(const Step &s);

    std::string raw_write(const Step &s);

    // Changes one byte on the device without telling the model: the next
    // verify must notice (proves the guard and payload checks can fail).
    std::string corrupt(Buffer &b, bool guard) const;

    static std::string selftest(const std::string &action);

    // kernel_* steps (executor_kernel.cpp); their DRM files, BOs and jobs,
    // created on the instance's first kernel step.
    KernelState &kernel_state();
    std::string kernel_bo(const Step &s);
    std::string kernel_bo_read(const Step &s);
    std::string kernel_va(const Step &s);
    std::string kernel_cs(const Step &s);
    std::string kernel_wait(const Step &s);
    std::string kernel_syncobj(const Step &s);
    std::string kernel_dependency(const Step &s);
    std::string kernel_dmabuf(const Step &s);
    // kernel_vm (executor_kernel_vm.cpp): what the next job sees after a VA change.
    std::string kernel_vm(const Step &s);
    // kernel_jobs (executor_kernel_jobs.cpp): fences and job lifetimes.
    std::string kernel_jobs(const Step &s);
    // kernel_packet (executor_kernel_packet.cpp): one SDMA packet on one ring.
    std::string kernel_packet(const Step &s);
    // kernel_kfd (executor_kernel_kfd.cpp): kfd_mem_attach's peer decision.
    std::string kernel_kfd(const Step &s);
};

} // namespace harness::runner::detail
