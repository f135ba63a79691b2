#include "runner/executor.hpp"

#include "executor_impl.hpp"
#include "rocm_steps.hpp"

#include "cases/hip_codes.hpp"
#include "cases/pattern.hpp"
#include "cases/step_table.hpp"
#include "runner/kernel_log.hpp"

#include <peer/peer_debug.h>

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

namespace harness::runner {

namespace detail {

nlohmann::json Interpreter::run() {
    KmsgWindow kmsg; // from here on, this instance's amdgpu lines are its own
    nlohmann::json out;
    out["failures"] = nlohmann::json::array();
    out["kernel_errors"] = nlohmann::json::array();
    int index = 0, ran = 0;
    // An instance of a `path` axis must run on that path; the process's path
    // was fixed by its first peer call (CONTRACT.md §7), so say so if it is
    // another one rather than pass on the wrong path.
    if (auto it = in_.words.find("path"); it != in_.words.end() && harness_runtime()) {
        const char *got = peerKernelPath();
        out["kernel_path"] = got ? got : "invalid";
        if (!got || it->second != got) {
            out["failures"].push_back(
                {{"step", 0},
                 {"file", in_.kase->at.file},
                 {"line", in_.kase->at.line},
                 {"message", "path: the peer API runs the " + std::string(got ? got : "invalid") +
                                 " path, the instance asks for " + it->second},
                 {"doc", ""}});
            out["steps_run"] = 0;
            out["status"] = "fail";
            return out;
        }
    }
    // Wall time of each step that ran, failing one included: where an
    // instance's time goes (report::StepTime). Microseconds are plenty.
    nlohmann::json step_ms = nlohmann::json::array();
    std::string ended; // ROCm's runtime cannot go on past a step (rocm_steps.hpp)
    for (const auto &step : in_.kase->steps) {
        ++index;
        if (!in_.runs(step)) continue;
        if (!ended.empty()) { // counted as steps of the case, not compared
            answers_.push_back({index, ended});
            continue;
        }
        ++ran;
        step_index_ = index;
        // A differential run's trace: a crash inside this step is attributed
        // to it from the instance's log (differential.hpp, crashed_step_of).
        if (ws_.record_answers()) std::fprintf(stderr, "step %d\n", index);
        if (harness_runtime()) peerClearLastKernelError();
        const auto began = std::chrono::steady_clock::now();
        answer_.clear();
        current_ = &step;
        const RocmStep policy = harness_runtime() ? RocmStep{} : rocm_step(step.spec->kind);
        std::string failure;
        if (policy.action == RocmStep::Action::run) failure = execute(step);
        const std::chrono::duration<double, std::milli> took =
            std::chrono::steady_clock::now() - began;
        step_ms.push_back({index, std::round(took.count() * 1000) / 1000});
        if (policy.action != RocmStep::Action::run)
            answer_ = std::string(kNotComparable) + policy.reason;
        else if (answer_.empty())
            answer_ = failure.empty() ? "ok" : "failed";
        answers_.push_back({index, answer_});
        if (ws_.record_answers()) std::fprintf(stderr, "answer %d: %s\n", index, answer_.c_str());
        if (policy.action == RocmStep::Action::end || ends_comparison_)
            ended = std::string(kNotComparable) +
                    "follows a step ROCm's runtime cannot take on the simulator";
        if (failure.empty()) continue;
        out["failures"].push_back({{"step", index},
                                   {"file", step.at.file},
                                   {"line", step.at.line},
                                   {"message", std::string(step.spec->name) + ": " + failure},
                                   {"doc", step.doc}});
        const char *k = harness_runtime() ? peerLastKernelError() : nullptr;
        if (k && *k) out["kernel_errors"].push_back(k);
        break;
    }
    out["steps_run"] = ran;
    if (ws_.record_answers()) out["answers"] = answers_;
    if (!step_ms.empty()) out["step_ms"] = std::move(step_ms);
    if (!copies_.empty()) out["copies"] = copies_;
    out["status"] = out["failures"].empty() ? "pass" : "fail";
    const KernelLogVerdict v = classify_kernel_log(kmsg.read_new(), static_cast<int>(getpid()),
                                                   expected_kernel_events_ & kExpectVmFault,
                                                   expected_kernel_events_ & kExpectReset);
    if (!v.lines.empty()) out["kernel_log"] = v.lines;
    if (v.kernel_bug)
        out["dmesg"] = "fail: a kernel WARNING / oops in this process";
    else if (v.repeated_reset)
        out["dmesg"] = "fail: one ring timeout reset its device more than once";
    else if (v.unexpected_fault || v.unexpected_reset)
        out["dmesg"] = std::string("fail: ") +
                       (v.unexpected_fault ? "a GPU page fault no step asked for"
                                           : "a ring timeout / GPU reset no step asked for");
    else if (v.warnings)
        out["dmesg"] = "warn: amdgpu logged warnings";
    return out;
}

// The step table: the member that runs each step kind of harness/cases's
// step table (the kinds, their arguments and checks are declared there). A
// new step kind is a row here and its member function; a kind without a row
// fails its instance (runner.e2e checks that every kind has one).
Interpreter::StepFunction Interpreter::step_function(StepKind kind) {
    struct Row {
        StepKind kind;
        StepFunction run;
    };
    static constexpr Row kRows[] = {
        // Devices and peer access (this file).
        {StepKind::set_device, &Interpreter::set_device},
        {StepKind::get_device, &Interpreter::get_device},
        {StepKind::get_device_count, &Interpreter::get_device_count},
        {StepKind::can_access_peer, &Interpreter::can_access},
        {StepKind::enable_peer_access, &Interpreter::enable_peer_access},
        {StepKind::disable_peer_access, &Interpreter::disable_peer_access},
        {StepKind::device_reset, &Interpreter::device_reset},
        {StepKind::device_synchronize, &Interpreter::device_synchronize},
        {StepKind::set_copy_packet_max, &Interpreter::set_copy_packet_max},
        {StepKind::error_name, &Interpreter::error_name},
        {StepKind::selftest, &Interpreter::selftest_step},
        // Allocations, copies, verification, raw access (executor_memory.cpp).
        {StepKind::alloc, &Interpreter::alloc},
        {StepKind::free, &Interpreter::free_buffer},
        {StepKind::fill, &Interpreter::fill},
        {StepKind::get_address_range, &Interpreter::address_range},
        {StepKind::memcpy_peer, &Interpreter::memcpy_peer},
        {StepKind::verify, &Interpreter::verify_step},
        {StepKind::raw_sdma_read, &Interpreter::raw_read},
        {StepKind::raw_sdma_write, &Interpreter::raw_write},
        // Streams (executor_streams.cpp).
        {StepKind::memcpy, &Interpreter::memcpy_kind},
        {StepKind::memcpy_async, &Interpreter::memcpy_kind},
        {StepKind::stream_synchronize, &Interpreter::stream_step},
        {StepKind::stream_query, &Interpreter::stream_step},
        {StepKind::stream_hold, &Interpreter::stream_step},
        {StepKind::stream_release, &Interpreter::stream_step},
        // Events and callbacks (executor_events.cpp).
        {StepKind::event_create, &Interpreter::event_step},
        {StepKind::event_record, &Interpreter::event_step},
        {StepKind::event_query, &Interpreter::event_step},
        {StepKind::event_synchronize, &Interpreter::event_step},
        {StepKind::event_destroy, &Interpreter::event_step},
        {StepKind::stream_wait_event, &Interpreter::event_step},
        {StepKind::event_elapsed_time, &Interpreter::elapsed_time},
        {StepKind::stream_add_callback, &Interpreter::add_callback},
        // Host memory, memory info, stream lifetime, last error (executor_host.cpp).
        {StepKind::memcpy_peer_async, &Interpreter::memcpy_peer_async},
        {StepKind::host_pageable, &Interpreter::host_step},
        {StepKind::host_malloc, &Interpreter::host_step},
        {StepKind::host_free, &Interpreter::host_step},
        {StepKind::host_register, &Interpreter::host_step},
        {StepKind::host_unregister, &Interpreter::host_step},
        {StepKind::host_get_device_pointer, &Interpreter::host_get_device_pointer},
        {StepKind::mem_get_info, &Interpreter::mem_get_info},
        {StepKind::stream_create, &Interpreter::stream_lifetime},
        {StepKind::stream_destroy, &Interpreter::stream_lifetime},
        {StepKind::get_last_error, &Interpreter::last_error},
        {StepKind::peek_at_last_error, &Interpreter::last_error},
        // Byte fills and device queries (executor_device.cpp).
        {StepKind::memset, &Interpreter::memset_bytes},
        {StepKind::memset_async, &Interpreter::memset_bytes},
        {StepKind::get_device_properties, &Interpreter::device_properties},
        {StepKind::device_get_attribute, &Interpreter::device_attribute},
        // Disruptive (executor_disruptive.cpp).
        {StepKind::provoke, &Interpreter::provoke},
        // Kernel-contract steps: raw ioctls on the instance's own DRM files
        // (executor_kernel.cpp, executor_kernel_vm.cpp, executor_kernel_jobs.cpp)
        // and the KFD path (executor_kernel_kfd.cpp).
        {StepKind::kernel_bo, &Interpreter::kernel_bo},
        {StepKind::kernel_bo_read, &Interpreter::kernel_bo_read},
        {StepKind::kernel_va, &Interpreter::kernel_va},
        {StepKind::kernel_cs, &Interpreter::kernel_cs},
        {StepKind::kernel_wait, &Interpreter::kernel_wait},
        {StepKind::kernel_syncobj, &Interpreter::kernel_syncobj},
        {StepKind::kernel_dependency, &Interpreter::kernel_dependency},
        {StepKind::kernel_dmabuf, &Interpreter::kernel_dmabuf},
        {StepKind::kernel_vm, &Interpreter::kernel_vm},
        {StepKind::kernel_jobs, &Interpreter::kernel_jobs},
        {StepKind::kernel_packet, &Interpreter::kernel_packet},
        {StepKind::kernel_kfd, &Interpreter::kernel_kfd},
    };
    for (const Row &r : kRows)
        if (r.kind == kind) return r.run;
    return nullptr;
}

std::string Interpreter::execute(const Step &s) {
    const StepFunction run = step_function(s.spec->kind);
    if (!run) return "step kind not handled by the interpreter";
    try {
        return (this->*run)(s);
    } catch (const StepError &e) {
        return e.message;
    }
}

std::string Interpreter::set_device(const Step &s) {
    int d = static_cast<int>(num(s, "device", 0));
    return code_check(s, hipSetDevice(d), fmt::format("hipSetDevice({})", d));
}

std::string Interpreter::get_device(const Step &s) {
    int d = -1;
    hipError_t e = hipGetDevice(&d);
    if (auto m = code_check(s, e, "hipGetDevice"); !m.empty()) return m;
    int64_t want = eval(s.arg("expect_value")->check.value);
    if (e == hipSuccess && d != want)
        return fmt::format("hipGetDevice reported {}, expected {}", d, want);
    return {};
}

std::string Interpreter::get_device_count(const Step &s) {
    int n = -1;
    hipError_t e = hipGetDeviceCount(&n);
    if (auto m = code_check(s, e, "hipGetDeviceCount"); !m.empty()) return m;
    const CheckArg &c = s.arg("expect_value")->check;
    int64_t want = c.kind == CheckArg::Kind::topology ? topo_.device_count : eval(c.value);
    if (n != want)
        return fmt::format("hipGetDeviceCount reported {}, expected {}{}", n, want,
                           c.kind == CheckArg::Kind::topology ? " (KFD topology)" : "");
    return {};
}

std::string Interpreter::free_buffer(const Step &s) {
    Buffer &b = buffer(s.arg("buffer")->word);
    hipError_t e = hipFree(b.base);
    if (e == hipSuccess) b.live = false;
    return code_check(s, e, "hipFree(" + s.arg("buffer")->word + ")");
}

std::string Interpreter::fill(const Step &s) {
    Buffer &b = buffer(s.arg("buffer")->word);
    PatternKind k = pattern_kind(word(s, "pattern", "lfsr"));
    b.expect.set_pattern(b.guard, b.bytes, k, static_cast<uint64_t>(num(s, "seed", 1)), 0);
    std::vector<uint8_t> bytes = expected_bytes(b, b.guard, b.bytes);
    hipError_t e = hipMemcpyHtoD(b.payload(), bytes.data(), b.bytes);
    if (e == hipSuccess) b.payload_known = true;
    return code_check(s, e, "hipMemcpyHtoD (fill)");
}

std::string Interpreter::enable_peer_access(const Step &s) {
    if (const Arg *d = s.arg("device"))
        if (auto m = set_current(static_cast<int>(eval(d->expr))); !m.empty()) return m;
    int peer = static_cast<int>(num(s, "peer", 0));
    unsigned flags = static_cast<unsigned>(num(s, "flags", 0));
    int cur = -1;
    hipGetDevice(&cur);
    const Placement before = placement_of(peer);
    hipError_t e = hipDeviceEnablePeerAccess(peer, flags);
    if (e == hipSuccess) enabled_.insert({cur, peer});
    if (auto m = code_check(
            s, e, fmt::format("hipDeviceEnablePeerAccess({}, {}) on device {}", peer, flags, cur));
        !m.empty())
        return m;
    if (e != hipSuccess) return {};
    return placement_check(before, cur, peer, "hipDeviceEnablePeerAccess");
}

std::string Interpreter::disable_peer_access(const Step &s) {
    if (const Arg *d = s.arg("device"))
        if (auto m = set_current(static_cast<int>(eval(d->expr))); !m.empty()) return m;
    int peer = static_cast<int>(num(s, "peer", 0));
    int cur = -1;
    hipGetDevice(&cur);
    hipError_t e = hipDeviceDisablePeerAccess(peer);
    if (e == hipSuccess) enabled_.erase({cur, peer});
    return code_check(s, e, fmt::format("hipDeviceDisablePeerAccess({}) on device {}", peer, cur));
}

std::string Interpreter::device_reset(const Step &s) {
    if (const Arg *d = s.arg("device"))
        if (auto m = set_current(static_cast<int>(eval(d->expr))); !m.empty()) return m;
    int cur = -1;
    hipGetDevice(&cur);
    hipError_t e = hipDeviceReset();
    if (e == hipSuccess) {
        // harness/peer/CONTRACT.md §2 hipDeviceReset: C's allocations are freed
        // and C's enabled state is cleared.
        for (auto &[name, b] : buffers_)
            if (b.device == cur) b.live = false;
        std::erase_if(enabled_, [&](const auto &p) { return p.first == cur; });
    }
    return code_check(s, e, fmt::format("hipDeviceReset on device {}", cur));
}

std::string Interpreter::device_synchronize(const Step &s) {
    return code_check(s, hipDeviceSynchronize(), "hipDeviceSynchronize()");
}

std::string Interpreter::set_copy_packet_max(const Step &s) {
    // The runner's fresh state restores the default between instances
    // (Runtime::restore_fresh_state), so a case never leaks its packet size.
    const int d = static_cast<int>(num(s, "device", 0));
    const int64_t bytes = num(s, "bytes", 0);
    return code_check(s, peerSetCopyPacketMax(d, static_cast<size_t>(bytes)),
                      fmt::format("peerSetCopyPacketMax({}, {})", d, bytes));
}

std::string Interpreter::verify_step(const Step &s) {
    return verify(buffer(s.arg("buffer")->word), s.arg("buffer")->word);
}

std::string Interpreter::error_name(const Step &s) {
    const std::string code = word(s, "code", "");
    int v = hip_code_value(code).value_or(-1);
    const char *n = hipGetErrorName(static_cast<hipError_t>(v));
    const char *t = hipGetErrorString(static_cast<hipError_t>(v));
    if (!n || code != n)
        return fmt::format("hipGetErrorName({}) returned \"{}\", expected \"{}\"", v,
                           n ? n : "(null)", code);
    if (!t || !*t) return fmt::format("hipGetErrorString({}) returned an empty text", v);
    return {};
}

std::string Interpreter::selftest_step(const Step &s) {
    const std::string action = word(s, "action", "pass");
    if (action == "corrupt_guard" || action == "corrupt_payload") {
        const Arg *b = s.arg("buffer");
        if (!b) return "selftest " + action + " needs a buffer";
        return corrupt(buffer(b->word), action == "corrupt_guard");
    }
    return selftest(action);
}

std::string Interpreter::can_access(const Step &s) {
    int dev = static_cast<int>(num(s, "device", 0));
    int peer = static_cast<int>(num(s, "peer", 0));
    int value = kUntouched;
    bool null_out = word(s, "out", "out") == "null";
    hipError_t e = hipDeviceCanAccessPeer(null_out ? nullptr : &value, dev, peer);
    std::string call =
        fmt::format("hipDeviceCanAccessPeer({}, {}, {})", null_out ? "NULL" : "&out", dev, peer);
    if (auto m = code_check(s, e, call); !m.empty()) return m;
    if (null_out) return {};
    // Without expect_value: a success is checked against the topology, an
    // error must leave the output alone.
    CheckArg c;
    if (const Arg *a = s.arg("expect_value"))
        c = a->check;
    else
        c.kind = e == hipSuccess ? CheckArg::Kind::topology : CheckArg::Kind::untouched;
    if (c.kind == CheckArg::Kind::untouched) {
        if (value != kUntouched)
            return fmt::format("{} wrote {} to its output, expected it untouched", call, value);
        return {};
    }
    int64_t want;
    if (c.kind == CheckArg::Kind::topology) {
        if (dev < 0 || peer < 0 || dev >= topo_.device_count || peer >= topo_.device_count)
            return fmt::format("expect_value topology needs valid ids, got {} and {}", dev, peer);
        want = topo_.can_access(dev, peer) ? 1 : 0;
    } else {
        want = eval(c.value);
    }
    if (value != want)
        return fmt::format("{} wrote {}, expected {}{}", call, value, want,
                           c.kind == CheckArg::Kind::topology
                               ? fmt::format(" (KFD topology: {} link, {})",
                                             link_type_name(topo_.link_type(dev, peer)),
                                             want ? "direct access" : "no direct access")
                               : std::string());
    return {};
}

std::string Interpreter::selftest(const std::string &action) {
    // Each says what it does, so that the runner's tests can find the words
    // in the instance's log: buffered (stdout) for one that returns,
    // unbuffered (stderr) for the ones that never do.
    if (action == "fail") {
        std::printf("selftest: failing on purpose\n");
        return "failing on purpose";
    }
    if (action == "crash" || action == "abort" || action == "hang")
        std::fprintf(stderr, "selftest: %s on purpose\n", action.c_str());
    if (action == "crash") std::raise(SIGSEGV);
    if (action == "abort") std::abort();
    if (action == "hang")
        for (;;)
            pause();
    return {};
}

} // namespace detail

bool executes_step(cases::StepKind kind) {
    return detail::Interpreter::step_function(kind) != nullptr;
}

nlohmann::json execute_instance(const cases::Instance &instance, const cases::Topology &topology,
                                Workspace &workspace) {
    std::string error;
    const Runtime *rt = workspace.runtime(error);
    if (!rt)
        return {{"status", "fail"},
                {"steps_run", 0},
                {"failures",
                 {{{"step", 0},
                   {"file", instance.kase->at.file},
                   {"line", instance.kase->at.line},
                   {"message", error},
                   {"doc", ""}}}}};
    return detail::Interpreter(instance, topology, workspace, *rt).run();
}

std::string kernel_path_of(const cases::Instance &instance) {
    if (auto it = instance.words.find("path"); it != instance.words.end()) return it->second;
    const char *env = std::getenv("PEER_HARNESS_PATH");
    return env && *env ? env : "drm";
}

void use_kernel_path(const cases::Instance &instance) {
    ::setenv("PEER_HARNESS_PATH", kernel_path_of(instance).c_str(), 1);
}

} // namespace harness::runner
