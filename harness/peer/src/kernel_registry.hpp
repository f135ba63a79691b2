// The kernels a program's HIP compiler registered: its module constructor
// calls __hipRegisterFatBinary once per translation unit with kernels (the
// answer is a handle) and __hipRegisterFunction once per kernel, naming the
// kernel's host-side handle, which kernel<<<...>>> later passes to
// hipLaunchKernel. The registry maps that handle back to the kernel's name
// and its fat binary, so a launch can say which kernel it refused and why
// (CONTRACT.md §5.6).
//
// Registration runs before main and before any device is opened, so the
// registry is not part of Runtime; it is created on first use and never
// destroyed (the compiler's module destructors may run after every static
// destructor of this library).
#pragma once

#include "code_objects.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>

namespace peer {

class KernelRegistry {
  public:
    static KernelRegistry &get();

    // The handle of a fat binary whose wrapper holds `bundle`.
    void **add_fat_binary(const void *bundle);
    // Forgets the fat binary and every kernel registered with it.
    void remove_fat_binary(void **handle);
    // False when `handle` is not a live fat binary of this registry.
    bool add_function(void **handle, const void *host_function, const char *device_name);

    struct Kernel {
        std::string device_name; // the compiler's (mangled) name of the kernel
        CodeObjectImage image;   // what its fat binary holds
    };
    std::optional<Kernel> find(const void *host_function);

    // True the first time `key` is asked for: refusals are reported once
    // per kernel or file, not once per launch.
    bool first_report(const std::string &key);

  private:
    KernelRegistry() = default;
    struct FatBinary {
        void *slot = nullptr; // the handle is &slot
        CodeObjectImage image;
    };
    std::mutex mu_;
    std::map<void **, std::unique_ptr<FatBinary>> binaries_; // guarded by mu_
    struct Entry {
        void **handle;
        std::string device_name;
    };
    std::map<const void *, Entry> functions_; // guarded by mu_
    std::set<std::string> reported_;          // guarded by mu_
};

} // namespace peer
