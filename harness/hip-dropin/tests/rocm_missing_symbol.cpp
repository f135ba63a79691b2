// Built against ROCm's headers and library, this program needs
// hipGraphCreate, which ROCm 5.2.3 exports and the drop-in library does not
// (missing-symbols.txt). Run on the drop-in library with LD_BIND_NOW=1, the
// dynamic loader must stop it before main, naming the symbol.
#include <hip/hip_runtime.h>

#include <cstdio>

int main() {
    std::puts("main reached");
    hipGraph_t graph = nullptr;
    return hipGraphCreate(&graph, 0) == hipSuccess ? 0 : 1;
}
