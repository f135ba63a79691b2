// Prints every value a program compiled against HIP headers bakes in:
// enumerator values, numeric flags, structure sizes, member offsets and
// sizes, for the list rocm_abi_lists.cmake took from ROCm's installed
// headers. Built twice, against ROCm's headers and against this project's
// (harness/peer/include); hip_dropin.abi_layout requires the same output.
#include <hip/hip_runtime.h>
#include <hip/hiprtc.h>

#include <cstddef>
#include <cstdio>

int main() {
#define PEER_ENUM(type, e) std::printf("enum %s %s = %lld\n", #type, #e, (long long)(e));
#define PEER_DEFINE(name) std::printf("define %s = %lld\n", #name, (long long)(name));
#define PEER_STRUCT(type)                                                                          \
    std::printf("struct %s size %zu align %zu\n", #type, sizeof(type), alignof(type));
#define PEER_MEMBER(type, m)                                                                       \
    std::printf("member %s.%s offset %zu size %zu\n", #type, #m, offsetof(type, m),                \
                sizeof(static_cast<type *>(nullptr)->m));
#include "rocm_abi_lists.inc"
    std::printf("sizeof dim3 %zu hipDeviceptr_t %zu hipStream_t %zu hipError_t %zu\n", sizeof(dim3),
                sizeof(hipDeviceptr_t), sizeof(hipStream_t), sizeof(hipError_t));
    return 0;
}
