#include "case_schema.hpp"

#include "cases/hip_codes.hpp"
#include "cases/step_table.hpp"

#include <string>

namespace harness::runner::testing {

namespace {

using json = nlohmann::ordered_json;
using namespace harness::cases;

json ref(const char *definition) {
    return {{"$ref", std::string("#/definitions/") + definition}};
}

// What one argument accepts, by its kind (the loader's rules for each kind).
json accepts(const ArgSpec &a) {
    switch (a.kind) {
    case ArgKind::expr:
        return ref("expr");
    case ArgKind::check:
        return {{"anyOf", json::array({{{"enum", {"topology", "untouched"}}}, ref("expr")})}};
    case ArgKind::buffer_def:
    case ArgKind::buffer_ref:
        return ref("identifier");
    case ArgKind::pointer:
        return ref("pointer");
    case ArgKind::pattern:
        return ref("pattern");
    case ArgKind::hip_code: // a name, or a word axis of names
        return {{"anyOf", json::array({ref("hip_error"), ref("variable")})}};
    case ArgKind::word: {
        json words = json::array(), forms = json::array();
        bool null_word = false;
        for (const char *w : a.words) {
            words.push_back(w);
            null_word = null_word || std::string(w) == "null";
        }
        forms.push_back({{"enum", words}});
        forms.push_back(ref("variable"));
        // YAML reads a bare `null` as no value; the loader takes it as the word.
        if (null_word) forms.push_back({{"type", "null"}});
        return {{"anyOf", forms}};
    }
    }
    return json::object();
}

json argument(const ArgSpec &a) {
    json j = accepts(a);
    j["description"] = a.help;
    return j;
}

json object_form(const StepSpec &spec) {
    json props = json::object(), required = json::array();
    for (const ArgSpec &a : spec.args) {
        props[a.name] = argument(a);
        if (a.required) required.push_back(a.name);
    }
    json o = {{"type", "object"}, {"additionalProperties", false}, {"properties", props}};
    if (!required.empty()) o["required"] = required;
    return o;
}

// loader_steps.cpp's one_step: a map of the arguments; the shorthand
// argument alone when no other is required; a bare step when none is.
json step_args(const StepSpec &spec) {
    json forms = json::array({object_form(spec)});
    bool others_required = false, any_required = false;
    for (const ArgSpec &a : spec.args) {
        any_required = any_required || a.required;
        if (a.required && (!spec.shorthand || std::string(a.name) != spec.shorthand))
            others_required = true;
    }
    if (spec.shorthand && !others_required)
        forms.push_back(argument(*find_arg(spec, spec.shorthand)));
    if (!any_required) forms.push_back({{"type", "null"}});
    json j = {{"description", spec.summary}};
    if (forms.size() == 1) {
        j.update(forms[0]);
    } else {
        j["anyOf"] = forms;
    }
    return j;
}

} // namespace

json with_step_table(json schema) {
    json &defs = schema["definitions"];
    json codes = json::array();
    for (const HipCode &c : hip_codes())
        codes.push_back(c.name);
    defs["hip_error"] = {{"enum", codes}};

    json args = json::object(), props = json::object(), one_of = json::array();
    for (const StepSpec &spec : step_specs()) {
        args[spec.name] = step_args(spec);
        props[spec.name] = ref((std::string("args/") + spec.name).c_str());
        json one = {{"required", {spec.name}}};
        if (!spec.takes_expect) one["not"] = {{"required", {"expect"}}};
        one_of.push_back(one);
    }
    for (const char *modifier : {"expect", "doc", "when"})
        props[modifier] = defs["step"]["properties"][modifier];
    defs["args"] = args;
    defs["step"] = {{"type", "object"},
                    {"additionalProperties", false},
                    {"properties", props},
                    {"oneOf", one_of}};
    return schema;
}

} // namespace harness::runner::testing
