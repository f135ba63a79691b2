// `peer-harness differential` (differential.hpp): which GPUs ROCm's HIP
// sees, the two child runs over them, and the comparison of their journals.
#include "runner/differential.hpp"

#include "cases/loader.hpp"
#include "cases/step_table.hpp"
#include "report/journal.hpp"
#include "report/tokens.hpp"
#include "runner/results_dir.hpp"
#include "runner/topology_probe.hpp"
#include "runtime.hpp"
#include "self_process.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <unistd.h>

namespace harness::runner {

namespace fs = std::filesystem;

namespace {

// "0000:03:00.0" -> (domain, bus, device, function), case-insensitive.
bool parse_slot(const std::string &s, unsigned (&out)[4]) {
    return std::sscanf(s.c_str(), "%x:%x:%x.%x", &out[0], &out[1], &out[2], &out[3]) == 4;
}

// The KFD index of the GPU at `slot` in the probed topology, or -1.
int kfd_index_of(const cases::Topology &t, const std::string &slot) {
    unsigned want[4];
    if (!parse_slot(slot, want)) return -1;
    for (int d = 0; d < t.device_count; ++d) {
        const std::string &name = t.names[static_cast<size_t>(d)];
        const size_t sp = name.rfind(' ');
        unsigned got[4];
        if (sp != std::string::npos && parse_slot(name.substr(sp + 1), got) &&
            std::equal(std::begin(got), std::end(got), std::begin(want)))
            return d;
    }
    return -1;
}

struct RunResult {
    int exit_code = 0;
    double seconds = 0;
    std::string log;
};

RunResult run_child(const std::vector<std::string> &args, const fs::path &log) {
    RunResult r;
    r.log = log.string();
    const int fd = ::open(r.log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    const auto start = std::chrono::steady_clock::now();
    const SelfRunResult child = run_self(args, {.leave_simulator = true, .log_fd = fd});
    if (fd >= 0) ::close(fd);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    r.exit_code = child.started ? child.exit_code : 127;
    return r;
}

// The arguments both runs share: machine, cases, depth, jobs, GPUs, specs.
std::vector<std::string> run_args(const RunSettings &s, const std::string &devices,
                                  const fs::path &results) {
    std::vector<std::string> a{"run",
                               "--record-answers",
                               "--overwrite",
                               "--results",
                               results.string(),
                               "--jobs",
                               std::to_string(s.jobs),
                               "--timeout",
                               fmt::format("{}", s.timeout_s),
                               "--seed",
                               std::to_string(s.seed)};
    if (!s.machine.empty()) a.insert(a.end(), {"--machine", s.machine});
    if (!s.faults.empty()) a.insert(a.end(), {"--faults", s.faults});
    if (!s.manifest.empty()) a.insert(a.end(), {"--expect", s.manifest});
    if (s.depth == cases::Depth::full) a.insert(a.end(), {"--depth", "full"});
    if (!devices.empty()) a.insert(a.end(), {"--devices", devices});
    for (const auto &c : s.case_paths)
        a.insert(a.end(), {"--cases", c});
    a.insert(a.end(), s.catch_args.begin(), s.catch_args.end());
    return a;
}

// ROCm's GPUs as KFD indexes ("0,1"), from a `rocm-devices` child. Empty
// with `error` set when ROCm cannot run here or sees no GPU.
std::string rocm_devices(const RunSettings &s, std::string &error) {
    std::vector<std::string> args{"rocm-devices"};
    if (!s.machine.empty()) args.insert(args.end(), {"--machine", s.machine});
    if (!s.faults.empty()) args.insert(args.end(), {"--faults", s.faults});
    const SelfRunResult child = run_self(args, {.leave_simulator = true});
    if (!child.started || child.exit_code != 0) {
        error = child.started ? child.out : child.error;
        if (error.empty())
            error = "the rocm-devices probe exited " + std::to_string(child.exit_code);
        return {};
    }
    std::string list;
    std::istringstream in(child.out);
    std::string index, slot;
    while (in >> index >> slot)
        list += (list.empty() ? "" : ",") + index;
    if (list.empty())
        error = "ROCm's HIP lists no GPU on this machine (ROCm 5.2.3 knows gfx900-gfx90a and "
                "gfx101x/gfx103x; not gfx940+, gfx11 or gfx12), so there is nothing to compare";
    return list;
}

// The step kind and file:line of each step, from the run's own case files.
StepLookup step_lookup(const std::vector<std::string> &case_paths,
                       std::shared_ptr<cases::LoadResult> &keep) {
    keep = std::make_shared<cases::LoadResult>(cases::load_paths(case_paths));
    return [loaded = keep](const std::string &suite, const std::string &kase, int step) {
        for (const auto &su : loaded->suites)
            if (su.name == suite)
                for (const auto &c : su.cases)
                    if (c.name == kase && step >= 1 && step <= static_cast<int>(c.steps.size())) {
                        const auto &st = c.steps[static_cast<size_t>(step - 1)];
                        return StepInfo{st.spec ? st.spec->name : "?",
                                        fs::path(st.at.file).filename().string() + ":" +
                                            std::to_string(st.at.line)};
                    }
        return StepInfo{};
    };
}

std::string read_file(const fs::path &p) {
    std::ifstream in(p);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

int compare_dirs(const RunSettings &s, const fs::path &dir, std::string &table) {
    std::vector<report::InstanceRecord> recs[2];
    const char *names[2] = {"harness", "rocm"};
    for (int i = 0; i < 2; ++i) {
        const fs::path journal = dir / names[i] / report::tokens::kJournalFile;
        if (!fs::exists(journal)) {
            std::cerr << "peer-harness differential: no " << journal.string() << "\n";
            return 2;
        }
        recs[i] = report::records_of(report::read_journal(journal.string()));
    }
    std::vector<std::string> case_paths = s.case_paths;
    std::optional<cases::Topology> topology; // the machine as the harness run planned it
    if (auto saved = read_results_dir((dir / "harness").string());
        std::holds_alternative<SavedRun>(saved)) {
        case_paths = std::get<SavedRun>(saved).settings.case_paths;
        topology = std::get<SavedRun>(saved).topology;
    }
    std::shared_ptr<cases::LoadResult> loaded;
    const StepLookup steps = step_lookup(case_paths, loaded);
    // A crashed record's log is in its own run's directory: records of both
    // runs are told apart by address.
    auto trace = [&](const report::InstanceRecord &r) {
        if (r.log.empty() ||
            (r.status != report::Status::crash && r.status != report::Status::timeout))
            return Trace{};
        const bool ours = &r >= recs[0].data() && &r < recs[0].data() + recs[0].size();
        const fs::path log = dir / (ours ? names[0] : names[1]) / r.log;
        return fs::exists(log) ? trace_of(read_file(log)) : Trace{};
    };
    const DiffSummary d =
        compare_runs(recs[0], recs[1], steps, trace, topology ? &*topology : nullptr);
    table = render_differential(d);
    nlohmann::json j;
    j["compared"] = d.compared;
    j["documented"] = d.documented();
    j["unexplained"] = d.unexplained();
    j["not_comparable"] = d.not_comparable;
    j["both_failed"] = d.both_failed;
    j["both_failed_instances"] = d.both_failed_instances;
    for (const auto &r : d.rows)
        j["differences"].push_back({{"instance", r.instance},
                                    {"step", r.step},
                                    {"kind", r.info.kind},
                                    {"where", r.info.where},
                                    {"harness", r.harness},
                                    {"rocm", r.rocm},
                                    {"documented", r.documented},
                                    {"contract", r.contract}});
    std::ofstream(dir / "differential.json") << j.dump(1) << "\n";
    std::ofstream(dir / "differential.txt") << table;
    return d.unexplained() ? 1 : 0;
}

} // namespace

int differential_command(const RunSettings &s, const DifferentialOptions &o) {
    const fs::path dir = fs::absolute(o.results);
    if (o.compare_only) {
        std::string table;
        const int rc = compare_dirs(s, dir, table);
        std::cout << table;
        return rc;
    }
    if (s.machine.empty() && s.manifest.empty()) {
        std::cerr << "peer-harness differential: give --machine (simulator) or --expect "
                     "(hardware)\n";
        return 2;
    }
    fs::create_directories(dir);
    const auto start = std::chrono::steady_clock::now();
    std::string error;
    const std::string devices = rocm_devices(s, error);
    if (devices.empty()) {
        std::cerr << "peer-harness differential: " << error << "\n";
        return 2;
    }
    std::cout << fmt::format("differential: GPUs {} (those ROCm's HIP lists), {}\n", devices,
                             rocm_hip_library());
    RunResult runs[2];
    const char *names[2] = {"harness", "rocm"};
    for (int i = 0; i < 2; ++i) {
        auto args = run_args(s, devices, dir / names[i]);
        if (i == 1) args.insert(args.begin() + 1, {"--runtime", "rocm"});
        runs[i] = run_child(args, dir / (std::string(names[i]) + ".log"));
        std::cout << fmt::format("  {:<8} run: exit {}, {:.1f} s ({})\n", names[i],
                                 runs[i].exit_code, runs[i].seconds, runs[i].log);
        // 0 passed, 1 failures (the differences to compare); anything else
        // is a run that did not happen.
        if (runs[i].exit_code != 0 && runs[i].exit_code != 1) {
            std::cerr << "peer-harness differential: the " << names[i] << " run exited "
                      << runs[i].exit_code << "; see " << runs[i].log << "\n";
            return 2;
        }
    }
    std::string table;
    const int rc = compare_dirs(s, dir, table);
    std::cout << table;
    std::cout << fmt::format(
        "time: {:.1f} s (harness run {:.1f} s, ROCm run {:.1f} s); {}/differential.txt\n",
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
        runs[0].seconds, runs[1].seconds, dir.string());
    return rc;
}

int rocm_devices_command(std::ostream &out) {
    // The KFD view first: the probe forks, which must not happen once ROCm's
    // runtime has started its threads and opened /dev/kfd.
    auto t = probe_topology(30);
    if (auto *e = std::get_if<std::string>(&t)) {
        std::cout << "cannot read the KFD topology: " << *e << "\n";
        return 2;
    }
    const cases::Topology &topo = std::get<cases::Topology>(t);
    std::string error;
    std::unique_ptr<Runtime> rt = load_rocm_runtime(error);
    if (!rt) {
        std::cout << error << "\n";
        return 2;
    }
    int n = 0;
    const hipError_t e = rt->hip().hipGetDeviceCount(&n);
    if (e == hipErrorNoDevice) return 0;
    if (e != hipSuccess) {
        std::cout << "ROCm's hipGetDeviceCount returned " << rt->hip().hipGetErrorName(e) << "\n";
        return 2;
    }
    for (int i = 0; i < n; ++i) {
        char bus[64] = {};
        if (rt->hip().hipDeviceGetPCIBusId(bus, sizeof bus, i) != hipSuccess) {
            std::cout << "ROCm's hipDeviceGetPCIBusId(" << i << ") failed\n";
            return 2;
        }
        const int k = kfd_index_of(topo, bus);
        if (k < 0) {
            std::cout << "ROCm's device " << i << " (" << bus << ") is no KFD GPU\n";
            return 2;
        }
        out << k << " " << bus << "\n";
    }
    return 0;
}

} // namespace harness::runner
