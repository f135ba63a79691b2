#include "runner/executor.hpp"

#include "executor_impl.hpp"

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
    if (auto it = in_.words.find("path"); it != in_.words.end()) {
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
    for (const auto &step : in_.kase->steps) {
        ++index;
        if (!in_.runs(step)) continue;
        ++ran;
        step_index_ = index;
        peerClearLastKernelError();
        const auto began = std::chrono::steady_clock::now();
        std::string failure = execute(step);
        const std::chrono::duration<double, std::milli> took =
            std::chrono::steady_clock::now() - began;
        step_ms.push_back({index, std::round(took.count() * 1000) / 1000});
        if (failure.empty()) continue;
        out["failures"].push_back({{"step", index},
                                   {"file", step.at.file},
                                   {"line", step.at.line},
                                   {"message", std::string(step.spec->name) + ": " + failure},
                                   {"doc", step.doc}});
        const char *k = peerLastKernelError();
        if (k && *k) out["kernel_errors"].push_back(k);
        break;
    }
    out["steps_run"] = ran;
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

std::string Interpreter::execute(const Step &s) {
    try {
        return dispatch(s);
    } catch (const StepError &e) {
        return e.message;
    }
}

std::string Interpreter::dispatch(const Step &s) {
    switch (s.spec->kind) {
    case StepKind::set_device: {
        int d = static_cast<int>(num(s, "device", 0));
        return code_check(s, hipSetDevice(d), fmt::format("hipSetDevice({})", d));
    }
    case StepKind::get_device: {
        int d = -1;
        hipError_t e = hipGetDevice(&d);
        if (auto m = code_check(s, e, "hipGetDevice"); !m.empty()) return m;
        int64_t want = eval(s.arg("expect_value")->check.value);
        if (e == hipSuccess && d != want)
            return fmt::format("hipGetDevice reported {}, expected {}", d, want);
        return {};
    }
    case StepKind::get_device_count: {
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
    case StepKind::alloc:
        return alloc(s);
    case StepKind::free: {
        Buffer &b = buffer(s.arg("buffer")->word);
        hipError_t e = hipFree(b.base);
        if (e == hipSuccess) b.live = false;
        return code_check(s, e, "hipFree(" + s.arg("buffer")->word + ")");
    }
    case StepKind::fill: {
        Buffer &b = buffer(s.arg("buffer")->word);
        PatternKind k = pattern_kind(word(s, "pattern", "lfsr"));
        b.expect.set_pattern(b.guard, b.bytes, k, static_cast<uint64_t>(num(s, "seed", 1)), 0);
        std::vector<uint8_t> bytes = expected_bytes(b, b.guard, b.bytes);
        hipError_t e = hipMemcpyHtoD(b.payload(), bytes.data(), b.bytes);
        if (e == hipSuccess) b.payload_known = true;
        return code_check(s, e, "hipMemcpyHtoD (fill)");
    }
    case StepKind::can_access_peer:
        return can_access(s);
    case StepKind::enable_peer_access: {
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
                s, e,
                fmt::format("hipDeviceEnablePeerAccess({}, {}) on device {}", peer, flags, cur));
            !m.empty())
            return m;
        if (e != hipSuccess) return {};
        return placement_check(before, cur, peer, "hipDeviceEnablePeerAccess");
    }
    case StepKind::disable_peer_access: {
        if (const Arg *d = s.arg("device"))
            if (auto m = set_current(static_cast<int>(eval(d->expr))); !m.empty()) return m;
        int peer = static_cast<int>(num(s, "peer", 0));
        int cur = -1;
        hipGetDevice(&cur);
        hipError_t e = hipDeviceDisablePeerAccess(peer);
        if (e == hipSuccess) enabled_.erase({cur, peer});
        return code_check(s, e,
                          fmt::format("hipDeviceDisablePeerAccess({}) on device {}", peer, cur));
    }
    case StepKind::device_reset: {
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
    case StepKind::get_address_range:
        return address_range(s);
    case StepKind::memcpy_peer:
        return memcpy_peer(s);
    case StepKind::memcpy:
        return memcpy_kind(s, false);
    case StepKind::memcpy_async:
        return memcpy_kind(s, true);
    case StepKind::stream_synchronize:
    case StepKind::stream_query:
    case StepKind::stream_hold:
    case StepKind::stream_release:
        return stream_step(s);
    case StepKind::event_create:
    case StepKind::event_record:
    case StepKind::event_query:
    case StepKind::event_synchronize:
    case StepKind::event_destroy:
    case StepKind::stream_wait_event:
        return event_step(s);
    case StepKind::event_elapsed_time:
        return elapsed_time(s);
    case StepKind::stream_add_callback:
        return add_callback(s);
    case StepKind::memcpy_peer_async:
        return memcpy_peer_async(s);
    case StepKind::host_pageable:
    case StepKind::host_malloc:
    case StepKind::host_free:
    case StepKind::host_register:
    case StepKind::host_unregister:
        return host_step(s);
    case StepKind::host_get_device_pointer:
        return host_get_device_pointer(s);
    case StepKind::mem_get_info:
        return mem_get_info(s);
    case StepKind::stream_create:
    case StepKind::stream_destroy:
        return stream_lifetime(s);
    case StepKind::get_last_error:
    case StepKind::peek_at_last_error:
        return last_error(s);
    case StepKind::memset:
        return memset_bytes(s, false);
    case StepKind::memset_async:
        return memset_bytes(s, true);
    case StepKind::device_synchronize:
        return code_check(s, hipDeviceSynchronize(), "hipDeviceSynchronize()");
    case StepKind::get_device_properties:
        return device_properties(s);
    case StepKind::device_get_attribute:
        return device_attribute(s);
    case StepKind::set_copy_packet_max: {
        // The runner's fresh state restores the default between instances
        // (fresh_state.cpp), so a case never leaks its packet size.
        const int d = static_cast<int>(num(s, "device", 0));
        const int64_t bytes = num(s, "bytes", 0);
        return code_check(s, peerSetCopyPacketMax(d, static_cast<size_t>(bytes)),
                          fmt::format("peerSetCopyPacketMax({}, {})", d, bytes));
    }
    case StepKind::verify:
        return verify(buffer(s.arg("buffer")->word), s.arg("buffer")->word);
    case StepKind::raw_sdma_read:
        return raw_read(s);
    case StepKind::raw_sdma_write:
        return raw_write(s);
    case StepKind::error_name: {
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
    case StepKind::provoke:
        return provoke(s);
    case StepKind::selftest: {
        const std::string action = word(s, "action", "pass");
        if (action == "corrupt_guard" || action == "corrupt_payload") {
            const Arg *b = s.arg("buffer");
            if (!b) return "selftest " + action + " needs a buffer";
            return corrupt(buffer(b->word), action == "corrupt_guard");
        }
        return selftest(action);
    }
    case StepKind::kernel_bo:
    case StepKind::kernel_bo_read:
    case StepKind::kernel_va:
    case StepKind::kernel_cs:
    case StepKind::kernel_wait:
    case StepKind::kernel_syncobj:
    case StepKind::kernel_dependency:
    case StepKind::kernel_dmabuf:
        return kernel_step(s);
    case StepKind::kernel_vm:
        return kernel_vm(s);
    case StepKind::kernel_jobs:
        return kernel_jobs(s);
    case StepKind::kernel_kfd:
        return kernel_kfd(s);
    }
    return "step kind not handled by the interpreter";
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

nlohmann::json execute_instance(const cases::Instance &instance, const cases::Topology &topology,
                                Workspace &workspace) {
    return detail::Interpreter(instance, topology, workspace).run();
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
