// "Never a crash": every default suite file, mutated deterministically (a
// character deleted, a structural character inserted, a line duplicated),
// must load to either a valid model or diagnostics with a location, and a
// valid model must expand. Run under ASan/UBSan in CI, this also proves the
// loader reads no freed or out-of-range memory on malformed input.
#include "cases/expand.hpp"
#include "cases/loader.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

using namespace harness::cases;

TEST_CASE("mutated case files load or fail with a location, never crash", "[loader]") {
    Topology t = Topology::make(3);
    t.set(0, 1, LinkType::xgmi, true);
    t.set(1, 0, LinkType::xgmi, true);
    t.set(2, 0, LinkType::pcie, true);
    std::vector<std::string> files;
    for (const auto &e : std::filesystem::directory_iterator(DEFAULT_SUITE))
        if (e.path().extension() == ".yaml") files.push_back(e.path().string());
    REQUIRE(files.size() >= 5);
    std::sort(files.begin(), files.end());
    const char inserts[] = {':', '[', ']', '{', '}', '-', '$', '"', '\n', ' ', '*', '0'};
    int loaded = 0, rejected = 0;
    for (const auto &f : files) {
        std::ifstream in(f);
        std::stringstream ss;
        ss << in.rdbuf();
        const std::string text = ss.str();
        std::mt19937_64 rng(42); // fixed: the same mutations every run
        for (int m = 0; m < 120; ++m) {
            std::string mutated = text;
            size_t pos = static_cast<size_t>(rng() % mutated.size());
            switch (m % 3) {
            case 0:
                mutated.erase(pos, 1);
                break;
            case 1:
                mutated.insert(pos, 1, inserts[rng() % sizeof inserts]);
                break;
            default: {
                size_t start = mutated.rfind('\n', pos);
                start = start == std::string::npos ? 0 : start + 1;
                size_t end = mutated.find('\n', pos);
                if (end == std::string::npos) end = mutated.size();
                mutated.insert(start, mutated.substr(start, end - start) + "\n");
            }
            }
            LoadResult r = load_string(mutated, f);
            if (!r.ok()) {
                ++rejected;
                CHECK(r.suites.empty());
                for (const auto &d : r.errors) {
                    CHECK(d.at.line > 0);
                    CHECK(d.at.column > 0);
                    CHECK_FALSE(d.message.empty());
                }
                continue;
            }
            ++loaded;
            Expansion e = expand(r.suites, t, {});
            for (const auto &d : e.errors)
                CHECK(d.at.line > 0);
        }
    }
    // Both outcomes occur: the mutations are neither all harmless nor all fatal.
    CHECK(loaded > 0);
    CHECK(rejected > 0);
}
