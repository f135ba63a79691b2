#include "cases/hip_codes.hpp"
#include "cases/loader.hpp"
#include "cases/step_table.hpp"
#include "errnos/errno_names.hpp"
#include "kmd/status.hpp"
#include "runner/batch.hpp"
#include "runner/executor.hpp"
#include "runner/isolation.hpp"
#include "runner/progress.hpp"
#include "runner/topology_probe.hpp"

#include <peer/hip_peer.h>

#include <catch2/catch.hpp>

#include <algorithm>
#include <csignal>

using namespace harness;

TEST_CASE("the interpreter's step table runs every step kind the case language has", "[steps]") {
    for (const cases::StepSpec &spec : cases::step_specs()) {
        INFO("step kind " << spec.name);
        CHECK(runner::executes_step(spec.kind));
    }
}

TEST_CASE("kill policy: wait, then TERM, then KILL after the grace period", "[isolation]") {
    using runner::next_kill_signal;
    CHECK(next_kill_signal(0.5, 1.0, 0, 0.5, 2.0).signal == 0);
    CHECK(next_kill_signal(1.0, 1.0, 0, 1.0, 2.0).signal == SIGTERM);
    CHECK(next_kill_signal(2.0, 1.0, 1, 1.0, 2.0).signal == 0);
    CHECK(next_kill_signal(3.1, 1.0, 1, 2.1, 2.0).signal == SIGKILL);
}

TEST_CASE("batches take their share of what is left, capped, and shrink towards the end",
          "[batch]") {
    using runner::guided_batch_size;
    CHECK(guided_batch_size(400000, 2, 4096) == 4096); // long run: the cap
    CHECK(guided_batch_size(5000, 2, 4096) == 2500);   // the end: half each
    CHECK(guided_batch_size(5001, 2, 4096) == 2501);   // rounded up, nothing left over
    CHECK(guided_batch_size(40, 2, 4096) == 32);       // the tail floor
    CHECK(guided_batch_size(40, 2, 8) == 8);           // never above --batch-size
    CHECK(guided_batch_size(0, 2, 4096) == 32);        // retries only: still a batch
    // Walking a whole run down: every batch within the cap, and the last
    // batches of two jobs no more than the floor apart.
    size_t left = 100000, batches = 0, last = 0;
    while (left > 0) {
        const size_t take = std::min(left, guided_batch_size(left, 2, 4096));
        CHECK(take <= 4096);
        left -= take;
        last = take;
        ++batches;
    }
    CHECK(last <= 32);
    CHECK(batches < 100000 / 4096 + 2 * 8); // shrinking costs a few batches, not many
}

TEST_CASE("progress line shows done, failures and time left", "[progress]") {
    CHECK(runner::Progress::line(10, 40, 2, 5.0, "s/c") ==
          "[10/40] 2 failed | 5 s elapsed, ~15 s left | s/c");
    CHECK(runner::Progress::line(0, 4, 0, 0.0, "").find("~? left") != std::string::npos);
}

TEST_CASE("topology survives the metadata round trip", "[topology]") {
    cases::Topology t = cases::Topology::make(3);
    t.set(0, 1, cases::LinkType::xgmi, true);
    t.set(2, 0, cases::LinkType::pcie, false);
    t.source = "test";
    auto back = runner::topology_from_json(runner::topology_to_json(t));
    REQUIRE(std::holds_alternative<cases::Topology>(back));
    CHECK(std::get<cases::Topology>(back) == t);
    CHECK(std::holds_alternative<std::string>(runner::topology_from_json({{"error", "x"}})));
}

TEST_CASE("the case language's HIP codes equal the peer API's", "[codes]") {
    struct {
        const char *name;
        hipError_t value;
    } api[] = {{"hipSuccess", hipSuccess},
               {"hipErrorInvalidValue", hipErrorInvalidValue},
               {"hipErrorOutOfMemory", hipErrorOutOfMemory},
               {"hipErrorNotInitialized", hipErrorNotInitialized},
               {"hipErrorInvalidDevicePointer", hipErrorInvalidDevicePointer},
               {"hipErrorInvalidMemcpyDirection", hipErrorInvalidMemcpyDirection},
               {"hipErrorNoDevice", hipErrorNoDevice},
               {"hipErrorInvalidDevice", hipErrorInvalidDevice},
               {"hipErrorInvalidHandle", hipErrorInvalidHandle},
               {"hipErrorIllegalState", hipErrorIllegalState},
               {"hipErrorNotFound", hipErrorNotFound},
               {"hipErrorNotReady", hipErrorNotReady},
               {"hipErrorIllegalAddress", hipErrorIllegalAddress},
               {"hipErrorLaunchTimeOut", hipErrorLaunchTimeOut},
               {"hipErrorPeerAccessAlreadyEnabled", hipErrorPeerAccessAlreadyEnabled},
               {"hipErrorPeerAccessNotEnabled", hipErrorPeerAccessNotEnabled},
               {"hipErrorHostMemoryAlreadyRegistered", hipErrorHostMemoryAlreadyRegistered},
               {"hipErrorHostMemoryNotRegistered", hipErrorHostMemoryNotRegistered},
               {"hipErrorLaunchFailure", hipErrorLaunchFailure},
               {"hipErrorNotSupported", hipErrorNotSupported},
               {"hipErrorUnknown", hipErrorUnknown}};
    CHECK(cases::hip_codes().size() == std::size(api));
    for (const auto &a : api) {
        INFO(a.name);
        CHECK(cases::hip_code_value(a.name) == static_cast<int>(a.value));
    }
}

#include "cases/loader.hpp"
#include "runner/coverage.hpp"

TEST_CASE("coverage counts only run, non-skipped steps with the exact code", "[coverage]") {
    auto loaded = cases::load_string(R"(suite: s
cases:
  - name: a
    matrix: { pair: peer_capable, m: [x, y] }
    steps:
      - enable_peer_access: { device: $a, peer: $b }
      - enable_peer_access: { device: $a, peer: $b }
        expect: hipErrorPeerAccessAlreadyEnabled
        when: { m: y }
  - name: b
    matrix: { pair: xgmi }
    steps:
      - disable_peer_access: { device: $a, peer: $b }
        expect: hipErrorPeerAccessNotEnabled
)",
                                     "s.yaml");
    REQUIRE(loaded.ok());
    cases::Topology t = cases::Topology::make(2);
    t.set(0, 1, cases::LinkType::pcie, true);
    auto ex = cases::expand(loaded.suites, t, {});
    auto c = runner::documented_coverage(ex.instances);
    auto count = [&](const std::string &fn, const std::string &code) {
        for (const auto &x : c)
            if (fn == x.pair.function && code == x.pair.code) return x.instances;
        return -1;
    };
    CHECK(count("enable_peer_access", "hipSuccess") == 2);
    CHECK(count("enable_peer_access", "hipErrorPeerAccessAlreadyEnabled") == 1); // m=y only
    CHECK(count("disable_peer_access", "hipErrorPeerAccessNotEnabled") == 0);    // no xgmi: skipped
    // Every documented pair but the two asserted above is reported missing
    // (the table grows with the API, so the figure is derived from it).
    const std::string missing = std::to_string(c.size() - 2) + " not asserted";
    CHECK(runner::render_coverage(c).find(missing) != std::string::npos);
}

TEST_CASE("a bare null after a pointer-shorthand step is a NULL pointer", "[loader]") {
    auto loaded = cases::load_string(R"(suite: s
cases:
  - name: a
    matrix: { device: all_devices }
    steps:
      - host_free: null
      - host_unregister: null
        expect: hipErrorInvalidValue
      - stream_create:
      - get_last_error:
)",
                                     "s.yaml");
    REQUIRE(loaded.ok());
    const auto &steps = loaded.suites.at(0).cases.at(0).steps;
    REQUIRE(steps.size() == 4);
    REQUIRE(steps[0].arg("ptr"));
    CHECK(steps[0].arg("ptr")->pointer.base == cases::PointerArg::Base::null);
    REQUIRE(steps[1].arg("ptr"));
    CHECK(steps[1].arg("ptr")->pointer.base == cases::PointerArg::Base::null);
    CHECK(steps[2].arg("out") == nullptr); // default: a valid output
    auto bad = cases::load_string(R"(suite: s
cases:
  - name: a
    steps:
      - host_register: { ptr: nowhere, bytes: 4Ki }
)",
                                  "bad.yaml");
    REQUIRE_FALSE(bad.ok());
}

TEST_CASE("every errno a kernel step accepts is printed under its own name", "[errno]") {
    size_t names = 0;
    for (const cases::StepSpec &spec : cases::step_specs()) {
        const cases::ArgSpec *a = cases::find_arg(spec, "errno");
        if (!a) continue;
        for (const char *word : a->words) {
            INFO(spec.name << " errno: " << word);
            if (std::string(word) == "ok") {
                CHECK(runner::errno_matches(word, 0));
                continue;
            }
            const std::optional<int> value = errnos::errno_value(word);
            REQUIRE(value);
            CHECK(std::string(kmd::errno_name(*value)) == word);
            CHECK(runner::errno_matches(word, *value));
            CHECK_FALSE(runner::errno_matches(word, 0));
            ++names;
        }
    }
    CHECK(names >= errnos::kErrnoCount); // every kernel step takes the whole table
}

TEST_CASE("a kernel step expecting E2BIG passes when the kernel returns E2BIG", "[errno]") {
    auto loaded = cases::load_string(R"(suite: s
cases:
  - name: too-big
    matrix: { device: all_devices }
    steps:
      - kernel_bo: { device: $a, bytes: 4Ki, domain: vram, errno: E2BIG }
)",
                                     "s.yaml");
    REQUIRE(loaded.ok());
    const cases::Arg *want = loaded.suites.at(0).cases.at(0).steps.at(0).arg("errno");
    REQUIRE(want);
    CHECK(runner::errno_matches(want->word, E2BIG));
    CHECK_FALSE(runner::errno_matches(want->word, EINVAL));
    CHECK_FALSE(runner::errno_matches(want->word, 0));
    // What a failing step prints names it too.
    CHECK(kmd::Status::fail(E2BIG, "AMDGPU_GEM_CREATE").describe() ==
          "AMDGPU_GEM_CREATE: E2BIG (7)");
}
