#include "kernel_registry.hpp"

namespace peer {

KernelRegistry &KernelRegistry::get() {
    // Never destroyed: see kernel_registry.hpp.
    static KernelRegistry *const registry = new KernelRegistry;
    return *registry;
}

void **KernelRegistry::add_fat_binary(const void *bundle) {
    auto fb = std::make_unique<FatBinary>();
    fb->image = inspect_code_object(bundle);
    void **handle = &fb->slot;
    std::lock_guard lock(mu_);
    binaries_.emplace(handle, std::move(fb));
    return handle;
}

void KernelRegistry::remove_fat_binary(void **handle) {
    std::lock_guard lock(mu_);
    if (binaries_.erase(handle) == 0) return;
    std::erase_if(functions_, [&](const auto &kv) { return kv.second.handle == handle; });
}

bool KernelRegistry::add_function(void **handle, const void *host_function,
                                  const char *device_name) {
    std::lock_guard lock(mu_);
    if (!binaries_.count(handle) || !host_function) return false;
    functions_[host_function] = Entry{handle, device_name ? device_name : ""};
    return true;
}

std::optional<KernelRegistry::Kernel> KernelRegistry::find(const void *host_function) {
    std::lock_guard lock(mu_);
    auto it = functions_.find(host_function);
    if (it == functions_.end()) return std::nullopt;
    return Kernel{it->second.device_name, binaries_.at(it->second.handle)->image};
}

bool KernelRegistry::first_report(const std::string &key) {
    std::lock_guard lock(mu_);
    return reported_.insert(key).second;
}

} // namespace peer
