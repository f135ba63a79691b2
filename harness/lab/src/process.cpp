#include "lab/process.hpp"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace harness::lab {

int run_process(const std::vector<std::string> &args, const std::string &log) {
    std::vector<char *> argv;
    for (const auto &a : args)
        argv.push_back(const_cast<char *>(a.c_str()));
    argv.push_back(nullptr);
    pid_t pid = ::fork();
    if (pid < 0) return -errno;
    if (pid == 0) {
        if (!log.empty()) {
            int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
            if (fd >= 0) {
                ::dup2(fd, 1);
                ::dup2(fd, 2);
            }
        }
        ::execv(argv[0], argv.data());
        ::_exit(127);
    }
    int st = 0;
    while (::waitpid(pid, &st, 0) < 0 && errno == EINTR) {
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

std::string git_head(const std::string &repo) {
    std::string cmd = "git -C '" + repo + "' rev-parse HEAD 2>/dev/null";
    FILE *f = ::popen(cmd.c_str(), "r");
    char buf[128] = {};
    std::string out = f && std::fgets(buf, sizeof buf, f) ? buf : "";
    if (f) ::pclose(f);
    while (!out.empty() && (out.back() == '\n' || out.back() == '\r'))
        out.pop_back();
    return out;
}

std::string self_exe() {
    char buf[PATH_MAX];
    ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) return {};
    buf[n] = '\0';
    return buf;
}

std::string shell_join(const std::vector<std::string> &args) {
    std::string out;
    for (const auto &a : args) {
        if (!out.empty()) out += ' ';
        if (!a.empty() && a.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                              "0123456789-_./=:+,@%") == std::string::npos) {
            out += a;
            continue;
        }
        out += '\'';
        for (char c : a)
            out += c == '\'' ? std::string("'\\''") : std::string(1, c);
        out += '\'';
    }
    return out;
}

} // namespace harness::lab
