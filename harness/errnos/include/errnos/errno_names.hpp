// The errno names the harness reads (the `errno:` word of kernel-contract
// steps, harness/cases) and prints (kmd::Status, harness/kmd): one
// {value, name} table, so a name a case may expect is always a name the
// status printer can produce.
#pragma once

#include <cerrno>
#include <cstddef>
#include <iterator>
#include <optional>
#include <string_view>

namespace harness::errnos {

struct ErrnoName {
    int value;
    const char *name;
};

// Every errno a kernel-facing call of the harness may carry up: the amdgpu
// and KFD ioctls' codes, the libc calls around them, and the harness's own
// refusals (E2BIG: an IB or ring submission larger than its slot).
inline constexpr ErrnoName kErrnoNames[] = {
    {EPERM, "EPERM"},           {ENOENT, "ENOENT"},
    {EINTR, "EINTR"},           {EIO, "EIO"},
    {E2BIG, "E2BIG"},           {EBADF, "EBADF"},
    {EAGAIN, "EAGAIN"},         {ENOMEM, "ENOMEM"},
    {EACCES, "EACCES"},         {EFAULT, "EFAULT"},
    {EBUSY, "EBUSY"},           {EEXIST, "EEXIST"},
    {ENODEV, "ENODEV"},         {EINVAL, "EINVAL"},
    {ENOSPC, "ENOSPC"},         {ERANGE, "ERANGE"},
    {EDEADLK, "EDEADLK"},       {ENOSYS, "ENOSYS"},
    {ENODATA, "ENODATA"},       {ETIME, "ETIME"},
    {EOPNOTSUPP, "EOPNOTSUPP"}, {ETIMEDOUT, "ETIMEDOUT"},
    {ECANCELED, "ECANCELED"},   {EHWPOISON, "EHWPOISON"},
};

inline constexpr size_t kErrnoCount = std::size(kErrnoNames);

// "EINVAL" for EINVAL; nullptr for a value the table does not name.
constexpr const char *errno_name(int value) {
    for (const ErrnoName &e : kErrnoNames)
        if (e.value == value) return e.name;
    return nullptr;
}

// EINVAL for "EINVAL"; nullopt for a name the table does not hold.
constexpr std::optional<int> errno_value(std::string_view name) {
    for (const ErrnoName &e : kErrnoNames)
        if (name == e.name) return e.value;
    return std::nullopt;
}

} // namespace harness::errnos
