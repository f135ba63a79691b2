#include "kmd/status.hpp"

#include <cerrno>

namespace kmd {

const char *errno_name(int err) {
    switch (err) {
    case 0:
        return "OK";
    case EPERM:
        return "EPERM";
    case ENOENT:
        return "ENOENT";
    case EINTR:
        return "EINTR";
    case EIO:
        return "EIO";
    case EBADF:
        return "EBADF";
    case EAGAIN:
        return "EAGAIN";
    case ENOMEM:
        return "ENOMEM";
    case EACCES:
        return "EACCES";
    case EFAULT:
        return "EFAULT";
    case EBUSY:
        return "EBUSY";
    case EEXIST:
        return "EEXIST";
    case ENODEV:
        return "ENODEV";
    case EINVAL:
        return "EINVAL";
    case ENOSPC:
        return "ENOSPC";
    case ERANGE:
        return "ERANGE";
    case ENOSYS:
        return "ENOSYS";
    case ENODATA:
        return "ENODATA";
    case ETIME:
        return "ETIME";
    case ETIMEDOUT:
        return "ETIMEDOUT";
    case ECANCELED:
        return "ECANCELED";
    case EHWPOISON:
        return "EHWPOISON";
    case EOPNOTSUPP:
        return "EOPNOTSUPP";
    case EDEADLK:
        return "EDEADLK";
    default:
        return "E?";
    }
}

std::string Status::describe() const {
    if (ok()) return {};
    std::string s = call ? call : "?";
    s += ": ";
    s += errno_name(err);
    s += " (";
    s += std::to_string(err);
    s += ")";
    return s;
}

} // namespace kmd
