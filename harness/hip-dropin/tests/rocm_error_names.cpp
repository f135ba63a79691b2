// Built against ROCm's headers and library; run on the drop-in library:
// hipGetErrorName and hipGetErrorString answer every code of ROCm 5.2.3's
// hipError_t (the list rocm_abi_lists.cmake took from ROCm's header). A
// name is the code's own enumerator or, for a value with older aliases, one
// of the enumerators of that value; a text is never the unknown code's.
#include <hip/hip_runtime.h>
#include <hip/hiprtc.h>

#include <cstdio>
#include <map>
#include <set>
#include <string>

int main() {
    std::map<long long, std::set<std::string>> names; // value -> its enumerators
#define PEER_ENUM(type, e)                                                                         \
    if (std::string(#type) == "hipError_t") names[(long long)(e)].insert(#e);
#define PEER_DEFINE(name)
#define PEER_STRUCT(type)
#define PEER_MEMBER(type, m)
#include "rocm_abi_lists.inc"
    const std::string unknown_text = hipGetErrorString(static_cast<hipError_t>(123456));
    int failures = 0, codes = 0;
    for (const auto &[value, enumerators] : names) {
        if (enumerators.count("hipErrorTbd")) continue; // a marker, not a code
        const auto e = static_cast<hipError_t>(value);
        const char *name = hipGetErrorName(e);
        const char *text = hipGetErrorString(e);
        ++codes;
        if (!name || !enumerators.count(name)) {
            std::fprintf(stderr, "code %lld (%s): hipGetErrorName says %s\n", value,
                         enumerators.begin()->c_str(), name ? name : "NULL");
            ++failures;
        }
        if (!text || !*text || (value != hipErrorUnknown && unknown_text == text)) {
            std::fprintf(stderr, "code %lld (%s): hipGetErrorString says \"%s\"\n", value,
                         enumerators.begin()->c_str(), text ? text : "NULL");
            ++failures;
        }
    }
    std::printf("%d codes of ROCm 5.2.3's hipError_t, %d wrong answers\n", codes, failures);
    return failures == 0 && codes > 50 ? 0 : 1;
}
