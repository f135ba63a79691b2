#include "reexec.hpp"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <sys/auxv.h>
#include <unistd.h>
#include <vector>

namespace harness::cli {

namespace fs = std::filesystem;

namespace {

bool executable(const std::string &p) {
    return !p.empty() && ::access(p.c_str(), X_OK) == 0;
}

std::string self_path() {
    char buf[PATH_MAX];
    ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) return {};
    buf[n] = '\0';
    return buf;
}

} // namespace

std::string find_amdgpu_sim() {
    if (const char *e = std::getenv("PEER_HARNESS_AMDGPU_SIM"); e && executable(e)) return e;
    if (executable(PEER_HARNESS_AMDGPU_SIM)) return PEER_HARNESS_AMDGPU_SIM;
    std::string self = self_path();
    if (!self.empty()) {
        fs::path dir = fs::path(self).parent_path();
        for (fs::path cand : {dir / "amdgpu-sim", dir / "../../fixtures/amdgpu-sim/amdgpu-sim"})
            if (executable(cand.string())) return fs::weakly_canonical(cand).string();
    }
    if (const char *path = std::getenv("PATH")) {
        std::stringstream ss(path);
        std::string d;
        while (std::getline(ss, d, ':'))
            if (executable(d + "/amdgpu-sim")) return d + "/amdgpu-sim";
    }
    return {};
}

std::string resolve_machine_file(const std::string &machine) {
    std::error_code ec;
    if (fs::is_regular_file(machine, ec)) return machine;
    return (fs::path(PEER_HARNESS_MACHINES_DIR) / (machine + ".yaml")).string();
}

void reexec_with_huge_page_heap(char **argv) {
    constexpr const char *kTunable = "glibc.malloc.hugetlb";
    const char *env = std::getenv("GLIBC_TUNABLES");
    if ((env && std::strstr(env, kTunable)) || ::getauxval(AT_SECURE)) return;
    const std::string self = self_path();
    if (self.empty()) return;
    const std::string before = env ? env : "";
    const std::string value = std::string(kTunable) + "=1" + (before.empty() ? "" : ":" + before);
    if (::setenv("GLIBC_TUNABLES", value.c_str(), 1) != 0) return;
    ::execv(self.c_str(), argv);
    // Still here: run as we are, without a variable children would inherit.
    if (env)
        ::setenv("GLIBC_TUNABLES", before.c_str(), 1);
    else
        ::unsetenv("GLIBC_TUNABLES");
}

std::string reexec_under_simulator(const std::string &machine, const std::string &faults, int argc,
                                   char **argv) {
    std::string sim = find_amdgpu_sim();
    if (sim.empty())
        return "--machine needs the simulator launcher amdgpu-sim (build target amdgpu-sim, or "
               "set PEER_HARNESS_AMDGPU_SIM)";
    std::string self = self_path();
    if (self.empty()) return "cannot find this executable (/proc/self/exe)";
    std::vector<std::string> args{sim, "--machine", machine};
    if (!faults.empty()) {
        args.emplace_back("--faults");
        args.push_back(faults);
    }
    args.emplace_back("--");
    args.push_back(self);
    for (int i = 1; i < argc; ++i)
        args.emplace_back(argv[i]);
    std::vector<char *> cargs;
    for (auto &a : args)
        cargs.push_back(a.data());
    cargs.push_back(nullptr);
    ::setenv("PEER_HARNESS_SIMULATOR", machine.c_str(), 1);
    ::execv(sim.c_str(), cargs.data());
    return "cannot execute " + sim + ": " + std::strerror(errno);
}

} // namespace harness::cli
