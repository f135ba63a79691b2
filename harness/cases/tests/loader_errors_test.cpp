// One bad file per error class (tests/data/bad/*.yaml). Each file's first line
// says where the error must be reported and what the message must contain:
//   # expect: LINE:COL: text
// Files are found by listing the directory, so a new one is tested by adding it.
#include "cases/loader.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>

using namespace harness::cases;

namespace {

struct Expectation {
    int line = 0, column = 0;
    std::string text;
};

Expectation read_expectation(const std::string &path) {
    std::ifstream in(path);
    std::string first;
    std::getline(in, first);
    Expectation e;
    const std::string tag = "# expect: ";
    REQUIRE(first.rfind(tag, 0) == 0);
    std::string rest = first.substr(tag.size());
    size_t c1 = rest.find(':'), c2 = rest.find(':', c1 + 1);
    e.line = std::stoi(rest.substr(0, c1));
    e.column = std::stoi(rest.substr(c1 + 1, c2 - c1 - 1));
    e.text = rest.substr(c2 + 2);
    return e;
}

} // namespace

TEST_CASE("every bad case file is rejected at the expected place", "[loader]") {
    std::vector<std::string> files;
    for (const auto &e : std::filesystem::directory_iterator(CASES_TEST_DATA "/bad"))
        files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    REQUIRE(files.size() >= 15);
    for (const auto &f : files) {
        DYNAMIC_SECTION(std::filesystem::path(f).filename().string()) {
            Expectation want = read_expectation(f);
            LoadResult r = load_file(f);
            REQUIRE_FALSE(r.ok());
            CHECK(r.suites.empty()); // a bad file never yields something to run
            const Diagnostic &d = r.errors.front();
            INFO(d.to_string());
            CHECK(d.at.file == f);
            CHECK(d.at.line == want.line);
            CHECK(d.at.column == want.column);
            CHECK(d.message.find(want.text) != std::string::npos);
            CHECK(d.to_string().rfind(f + ":" + std::to_string(want.line) + ":" +
                                          std::to_string(want.column) + ": error: ",
                                      0) == 0);
        }
    }
}

TEST_CASE("a missing file is an error, not an empty suite", "[loader]") {
    LoadResult r = load_paths({CASES_TEST_DATA "/does-not-exist.yaml"});
    REQUIRE_FALSE(r.ok());
    CHECK(r.errors.front().message.find("cannot open") != std::string::npos);
}

TEST_CASE("a good file loads with its steps, axes and expectations", "[loader]") {
    const char *text = R"(suite: s
cases:
  - name: enable-twice
    doc: "Returns hipErrorPeerAccessAlreadyEnabled ..."
    matrix: { pair: peer_capable, size: [4Ki, 4Mi+1], peer_mode: [enabled, disabled] }
    steps:
      - alloc: { device: $b, bytes: $size, as: buf, guard: 4Ki, fill: { pattern: lfsr, seed: 7 } }
      - set_device: $a
      - enable_peer_access: { peer: $b }
        when: { peer_mode: enabled }
      - enable_peer_access: $b
        expect: hipErrorPeerAccessAlreadyEnabled
        doc: "already enabled"
      - raw_sdma_read: { device: $a, src: { buffer: buf, offset: $buf.bytes-1 }, bytes: 1, must: fault }
)";
    LoadResult r = load_string(text, "mem.yaml");
    for (const auto &e : r.errors)
        INFO(e.to_string());
    REQUIRE(r.ok());
    const Case &c = r.suites.at(0).cases.at(0);
    CHECK(c.axes.size() == 3);
    CHECK(c.axes[0].kind == AxisKind::pair);
    CHECK(c.axes[1].values[1].text == "4Mi+1");
    REQUIRE(c.steps.size() == 5);
    CHECK(c.steps[3].expect == 704);
    CHECK(c.steps[3].doc == "already enabled");
    CHECK(c.steps[2].when.at(0).values == std::vector<std::string>{"enabled"});
    CHECK(c.steps[4].arg("src")->pointer.buffer == "buf");
    CHECK(c.disruptive); // a step that must fault makes the case disruptive
    CHECK(c.steps[0].at.line == 7);
}
