#include "kmd/fdinfo.hpp"

#include <catch2/catch.hpp>

#include <cerrno>

TEST_CASE("fdinfo drm-memory lines: table", "[kmd][fdinfo]") {
    struct Row {
        const char *text;
        int err;
        uint64_t vram, gtt;
    };
    const Row rows[] = {
        {"pos:\t0\ndrm-driver:\tamdgpu\ndrm-memory-vram:\t1024 KiB\ndrm-memory-gtt:\t8 KiB\n", 0,
         1 << 20, 8 << 10},
        {"drm-memory-vram:\t3 MiB\n", 0, 3 << 20, 0},
        {"drm-memory-vram: 12\ndrm-memory-gtt: 4\n", 0, 12, 4},
        {"drm-memory-gtt:\t8 KiB\n", ENODATA, 0, 0},
        {"", ENODATA, 0, 0},
        {"xdrm-memory-vram:\t8 KiB\n", ENODATA, 0, 0},
    };
    for (const auto &r : rows) {
        INFO(r.text);
        kmd::MemoryUsage u;
        kmd::Status s = kmd::parse_fdinfo_memory(r.text, u);
        CHECK(s.err == r.err);
        if (r.err == 0) {
            CHECK(u.vram_bytes == r.vram);
            CHECK(u.gtt_bytes == r.gtt);
        }
    }
}
