/*
 * __hip_fatbin for HIP sources compiled host side only (clang -x hip
 * --cuda-host-only): the compiler's registration code points at a symbol of
 * that name, which a device pass would have filled with code objects. This
 * one is a clang offload bundle with a single host entry and no code object
 * for any GPU, so every launch of such a program is refused with
 * hipErrorNoBinaryForGpu, as ROCm refuses a program built for no GPU present
 * (harness/peer/CONTRACT.md section 5.6). Layout: the bundle magic, the entry
 * count, then per entry its offset, size and id length (64-bit each) and id.
 */
#include <stdint.h>

#define PEER_HOST_ENTRY_ID "host-x86_64-unknown-linux-gnu"

struct peer_host_only_bundle {
    char magic[24];
    uint64_t entries;
    uint64_t offset, size, id_bytes;
    char id[sizeof PEER_HOST_ENTRY_ID - 1];
};

__attribute__((section(".hip_fatbin"), used, aligned(8)))
const struct peer_host_only_bundle __hip_fatbin = {
    {'_', '_', 'C', 'L', 'A', 'N', 'G', '_', 'O', 'F', 'F', 'L',
     'O', 'A', 'D', '_', 'B', 'U', 'N', 'D', 'L', 'E', '_', '_'},
    1,
    sizeof(struct peer_host_only_bundle),
    0,
    sizeof PEER_HOST_ENTRY_ID - 1,
    PEER_HOST_ENTRY_ID,
};
