// A buffer's expected contents kept as extents must hold exactly the bytes a
// plain byte array would after the same writes and copies: checked here
// against such an array through thousands of random operations, by every
// way of reading them (byte, range, gathered pieces).
#include "../src/expected_contents.hpp"
#include "../src/pattern_cache.hpp"

#include "cases/pattern.hpp"

#include <catch2/catch.hpp>

#include <cstring>
#include <random>
#include <stdexcept>
#include <vector>

using harness::cases::fill_pattern;
using harness::cases::PatternKind;
using namespace harness::runner::detail;

namespace {

std::vector<uint8_t> joined(const GatheredRange &g) {
    std::vector<uint8_t> out;
    for (const peerHostSpan &p : g.pieces) {
        const auto *b = static_cast<const uint8_t *>(p.bytes);
        out.insert(out.end(), b, b + p.size);
    }
    return out;
}

// A byte array and the extents, changed together.
struct Twin {
    explicit Twin(size_t n) : bytes(n, 0) { contents.reset(n); }
    std::vector<uint8_t> bytes;
    ExpectedContents contents;
};

} // namespace

TEST_CASE("expected contents hold what a byte array would, read every way", "[workspace]") {
    PatternCache cache;
    ExpectationPool pool;
    std::mt19937_64 rng(GENERATE(1u, 2u, 3u));
    // Small, where ranges meet often; big enough that some patterns come
    // from the cache (kMinCached).
    const size_t n = GENERATE(size_t{5000}, 3 * PatternCache::kMinCached + 4099);
    Twin a(n), b(n);
    a.contents = ExpectedContents(&pool);
    a.contents.reset(n);
    auto pick = [&](size_t below) { return static_cast<size_t>(rng() % below); };
    // Ends of earlier ranges: a third of the ranges start at one, so
    // neighbours (and the merging of extents that continue each other) are
    // exercised, not only ranges that cut extents in the middle.
    std::vector<size_t> ends{0};
    auto range = [&](size_t &at, size_t &len) {
        at = pick(3) == 0 ? ends[pick(ends.size())] : pick(n);
        // Mostly short ranges, sometimes most of the buffer.
        len = pick(2) ? pick(std::min<size_t>(n - at, 300) + 1) : pick(n - at + 1);
        ends.push_back(at + len < n ? at + len : 0);
    };
    for (int op = 0; op < 2000; ++op) {
        Twin &t = pick(2) ? a : b;
        Twin &o = pick(3) ? t : (&t == &a ? b : a); // copies within and between
        size_t at = 0, len = 0;
        range(at, len);
        switch (pick(4)) {
        case 0: {
            const auto kind = pick(2) ? PatternKind::lfsr : PatternKind::index;
            // Position 0, the buffer position (as guards use), or anywhere.
            const size_t how = pick(3);
            const uint64_t seed = pick(2), first = how == 0 ? 0 : how == 1 ? at : pick(1 << 20);
            t.contents.set_pattern(at, len, kind, seed, first);
            fill_pattern(kind, seed, first, t.bytes.data() + at, len);
            break;
        }
        case 1: {
            const auto v = static_cast<uint8_t>(rng());
            t.contents.set_value(at, len, v);
            std::memset(t.bytes.data() + at, v, len);
            break;
        }
        case 2: {
            std::vector<uint8_t> w(len);
            for (auto &x : w)
                x = static_cast<uint8_t>(rng());
            t.contents.set_bytes(at, w.data(), len);
            if (len) std::memcpy(t.bytes.data() + at, w.data(), len);
            break;
        }
        default: {
            const size_t from = pick(n - len + 1);
            t.contents.copy_from(at, o.contents, from, len);
            if (len) std::memmove(t.bytes.data() + at, o.bytes.data() + from, len);
            break;
        }
        }
        // A sampled byte after every step; whole ranges every 100 steps.
        const size_t i = pick(n);
        REQUIRE(t.contents.at(i) == t.bytes[i]);
        if (op % 100 == 0) {
            range(at, len);
            std::vector<uint8_t> got(len, 0xdb);
            t.contents.read(at, got.data(), len, cache);
            REQUIRE(std::memcmp(got.data(), t.bytes.data() + at, len) == 0);
            const GatheredRange g = t.contents.gather(at, len, cache);
            REQUIRE(joined(g) ==
                    std::vector<uint8_t>(t.bytes.begin() + static_cast<long>(at),
                                         t.bytes.begin() + static_cast<long>(at + len)));
        }
    }
    for (Twin *t : {&a, &b}) {
        std::vector<uint8_t> all(n, 0xdb);
        t->contents.read(0, all.data(), n, cache);
        CHECK(all == t->bytes);
        CHECK(joined(t->contents.gather(0, n, cache)) == t->bytes);
    }
}

TEST_CASE("a guarded pattern buffer gathers as three pieces, the payload from the kept pattern",
          "[workspace]") {
    PatternCache cache;
    ExpectedContents c;
    const size_t guard = 4096, payload = 4 * PatternCache::kMinCached + 1;
    c.reset(payload + 2 * guard);
    c.set_pattern(0, guard, PatternKind::lfsr, 77, 0);
    c.set_pattern(guard + payload, guard, PatternKind::lfsr, 77, guard + payload);
    c.set_pattern(guard, payload, PatternKind::lfsr, 11, 0);
    const GatheredRange g = c.gather(0, c.size(), cache);
    REQUIRE(g.pieces.size() == 3);
    CHECK(g.scratch.size() == 2 * guard); // only the guards were made here
    CHECK(g.pieces[1].bytes == cache.kept(PatternKind::lfsr, 11, 0, payload));
    // A copy into another buffer moves extents, not bytes: the destination
    // holds a few extents, however large the copy.
    ExpectedContents d;
    d.reset(c.size());
    d.set_pattern(0, d.size(), PatternKind::lfsr, 22, 0);
    d.copy_from(guard + 5, c, guard, payload - 5);
    CHECK(d.extent_count() <= 3);
    // Copying the whole source back over it leaves the list as it was.
    const size_t before = c.extent_count();
    c.copy_from(0, c, 0, c.size());
    CHECK(c.extent_count() == before);
}

TEST_CASE("expected contents refuse a range outside the buffer", "[workspace]") {
    ExpectedContents c;
    c.reset(100);
    CHECK_THROWS_AS(c.set_value(90, 11, 0), std::out_of_range);
    CHECK_THROWS_AS(c.at(100), std::out_of_range);
    CHECK_THROWS_AS(c.copy_from(0, c, 95, 10), std::out_of_range);
    CHECK_NOTHROW(c.set_value(100, 0, 0));
}
