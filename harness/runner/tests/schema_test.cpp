// cases/case-file.schema.json (what editors validate against) must say what
// the loader accepts. Its step arguments, step object and HIP names are
// generated from the loader's own tables (case_schema.hpp) and must equal the
// file exactly; the selectors are checked against the loader below.
#include "case_schema.hpp"

#include "cases/step_table.hpp"
#include "cases/topology.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

using namespace harness::cases;

namespace {

std::string read_text(const char *path) {
    std::ifstream in(path);
    REQUIRE(in);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

} // namespace

TEST_CASE("the schema's steps, arguments and HIP names are generated from the loader's tables",
          "[schema]") {
    const std::string text = read_text(CASES_SCHEMA);
    const auto file = nlohmann::ordered_json::parse(text);
    const std::string generated = harness::runner::testing::with_step_table(file).dump(2) + "\n";
    if (generated != text) {
        std::ofstream(CASES_SCHEMA_GENERATED) << generated;
        FAIL("cases/case-file.schema.json differs from the step table; the generated schema is "
             "in " CASES_SCHEMA_GENERATED ": review it and copy it over the file");
    }
}

TEST_CASE("the schema's selectors are the loader's", "[schema]") {
    const auto s = nlohmann::json::parse(read_text(CASES_SCHEMA));
    Topology t = Topology::make(2);
    CHECK(s["definitions"]["matrix"]["properties"]["machine"]["enum"] ==
          nlohmann::json({"has_devices", "no_devices"}));
    for (const char *axis : {"pair", "device", "triple"})
        for (const auto &sel : s["definitions"]["matrix"]["properties"][axis]["enum"]) {
            INFO(sel);
            CHECK(select(t, sel.get<std::string>()).has_value());
        }
}
