// The code object the test context loads lazily (vector_set.co), compiled
// for the device side only by clang (one bundle entry per GPU target clang
// 14 knows of the machine files: gfx90a, gfx908, gfx1030). Its body needs no
// device library, so no ROCm device code is involved; this runtime refuses
// to load it all the same.
extern "C" __attribute__((global)) void VectorSet(int *p, int value, unsigned long n) {
    for (unsigned long i = 0; i < n; ++i)
        p[i] = value;
}
