// cases/case-file.schema.json (what editors validate against) must say what
// the loader accepts: same steps, same arguments, same required ones, same
// HIP names, same selectors.
#include "cases/hip_codes.hpp"
#include "cases/step_table.hpp"
#include "cases/topology.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <set>

using namespace harness::cases;

namespace {

nlohmann::json schema() {
    std::ifstream in(CASES_SCHEMA);
    REQUIRE(in);
    return nlohmann::json::parse(in);
}

const nlohmann::json &object_form(const nlohmann::json &args) {
    if (!args.contains("anyOf")) return args;
    for (const auto &v : args["anyOf"])
        if (v.value("type", "") == "object") return v;
    FAIL("no object form");
    return args;
}

} // namespace

TEST_CASE("the schema's steps and arguments are the loader's", "[schema]") {
    auto s = schema();
    const auto &defs = s["definitions"];
    std::set<std::string> schema_steps;
    for (const auto &[k, v] : defs["step"]["properties"].items())
        if (k != "expect" && k != "doc" && k != "when") schema_steps.insert(k);
    std::set<std::string> table_steps;
    for (const auto &spec : step_specs()) {
        table_steps.insert(spec.name);
        INFO(spec.name);
        REQUIRE(defs["args"].contains(spec.name));
        const auto &obj = object_form(defs["args"][spec.name]);
        std::set<std::string> props, required, want_props, want_required;
        for (const auto &[k, v] : obj["properties"].items())
            props.insert(k);
        for (const auto &r : obj.value("required", nlohmann::json::array()))
            required.insert(r.get<std::string>());
        for (const auto &a : spec.args) {
            want_props.insert(a.name);
            if (a.required) want_required.insert(a.name);
        }
        CHECK(props == want_props);
        CHECK(required == want_required);
        bool forbids_expect = false;
        for (const auto &b : defs["step"]["oneOf"])
            if (b["required"][0] == spec.name) forbids_expect = b.contains("not");
        CHECK(forbids_expect == !spec.takes_expect);
    }
    CHECK(schema_steps == table_steps);
}

TEST_CASE("the schema's HIP names and selectors are the loader's", "[schema]") {
    auto s = schema();
    std::set<std::string> names, want;
    for (const auto &n : s["definitions"]["hip_error"]["enum"])
        names.insert(n.get<std::string>());
    for (const auto &c : hip_codes())
        want.insert(c.name);
    CHECK(names == want);
    Topology t = Topology::make(2);
    CHECK(s["definitions"]["matrix"]["properties"]["machine"]["enum"] ==
          nlohmann::json({"has_devices", "no_devices"}));
    for (const char *axis : {"pair", "device", "triple"})
        for (const auto &sel : s["definitions"]["matrix"]["properties"][axis]["enum"]) {
            INFO(sel);
            CHECK(select(t, sel.get<std::string>()).has_value());
        }
}
