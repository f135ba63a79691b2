// Helpers of the lab tests: temporary directories, starting peer-harness,
// reading JSON. Header-only, test-only.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace labtest {

namespace fs = std::filesystem;

struct TempDir {
    fs::path path;
    TempDir() {
        char tmpl[] = "/tmp/lab-test-XXXXXX";
        path = ::mkdtemp(tmpl);
    }
    ~TempDir() {
        if (std::getenv("LAB_TEST_KEEP")) return; // keep for inspection
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    TempDir(const TempDir &) = delete;
    TempDir &operator=(const TempDir &) = delete;
};

struct Ran {
    int code;
    std::string output;
};

// Runs `argv` (argv[0] a path) with stdout+stderr into dir/<log>.
inline Ran run_cmd(const std::vector<std::string> &args, const fs::path &dir,
                   const std::string &log = "output.txt") {
    const fs::path out = dir / log;
    pid_t pid = ::fork();
    if (pid == 0) {
        int fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        ::dup2(fd, 1);
        ::dup2(fd, 2);
        std::vector<char *> argv;
        for (const auto &a : args)
            argv.push_back(const_cast<char *>(a.c_str()));
        argv.push_back(nullptr);
        ::execvp(argv[0], argv.data());
        ::_exit(127);
    }
    int st = 0;
    ::waitpid(pid, &st, 0);
    std::ifstream in(out);
    std::stringstream ss;
    ss << in.rdbuf();
    return {WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st), ss.str()};
}

inline Ran run(std::vector<std::string> args, const fs::path &dir,
               const std::string &log = "output.txt") {
    args.insert(args.begin(), PEER_HARNESS_BIN);
    return run_cmd(args, dir, log);
}

inline std::string read_text(const fs::path &p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

inline nlohmann::json read_json(const fs::path &p) {
    auto j = nlohmann::json::parse(read_text(p), nullptr, false);
    return j.is_discarded() ? nlohmann::json() : j;
}

inline std::string git_describe() {
    std::string cmd =
        std::string("git -C '") + LAB_SOURCE_DIR + "' describe --always --dirty --tags";
    FILE *f = ::popen(cmd.c_str(), "r");
    char buf[256] = {};
    std::string out = f && std::fgets(buf, sizeof buf, f) ? buf : "";
    if (f) ::pclose(f);
    while (!out.empty() && (out.back() == '\n'))
        out.pop_back();
    return out;
}

} // namespace labtest
