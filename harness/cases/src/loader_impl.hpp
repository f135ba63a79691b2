// Private to the loader: the per-file validator, split over loader.cpp
// (suite and case), loader_matrix.cpp (axes) and loader_steps.cpp (steps
// and their arguments). Not installed, not for other folders.
#pragma once

#include "cases/hip_codes.hpp"
#include "cases/loader.hpp"
#include "cases/location.hpp"
#include "cases/model.hpp"
#include "cases/step_table.hpp"

#include <yaml-cpp/yaml.h>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace harness::cases::detail {

using cases::is_identifier;

inline constexpr const char *kPairSelectors[] = {"all_pairs",
                                                 "distinct_pairs",
                                                 "self_pairs",
                                                 "peer_capable",
                                                 "incapable",
                                                 "xgmi",
                                                 "pcie",
                                                 "pcie_p2p",
                                                 "asymmetric",
                                                 "beyond_bar",
                                                 "register_bar_capable",
                                                 "register_bar_incapable",
                                                 "import_in_vram"};
inline constexpr const char *kDeviceSelectors[] = {"all_devices"};
inline constexpr const char *kTripleSelectors[] = {"peer_capable_with_third"};
inline constexpr const char *kPeerModes[] = {"enabled", "disabled", "reverse_only"};
inline constexpr const char *kMachineSelectors[] = {"has_devices", "no_devices"};
inline constexpr const char *kStepModifiers[] = {"expect", "doc", "when"};

inline const char *type_name(const YAML::Node &n) {
    switch (n.Type()) {
    case YAML::NodeType::Null:
        return "nothing (null)";
    case YAML::NodeType::Scalar:
        return "a scalar";
    case YAML::NodeType::Sequence:
        return "a list";
    case YAML::NodeType::Map:
        return "a map";
    default:
        return "an undefined node";
    }
}

template <typename List> inline std::string join(const List &words, const char *sep = ", ") {
    std::string out;
    for (const auto &w : words) {
        if (!out.empty()) out += sep;
        out += w;
    }
    return out;
}

template <typename List> inline bool contains(const List &words, const std::string &w) {
    for (const auto &x : words) {
        if (w == x) return true;
    }
    return false;
}

// Everything one file's validation needs; diagnostics accumulate so a user
// sees every problem of a file in one go.
class FileLoader {
  public:
    FileLoader(std::string file, Diagnostics &errors) : file_(std::move(file)), errors_(errors) {}

    void load(const std::string &text, std::vector<Suite> &out);

  private:
    std::string file_;
    Diagnostics &errors_;

    // Per-case context for name checks.
    struct Scope {
        std::set<std::string> numeric_vars;       // usable in expressions
        std::map<std::string, const Axis *> axes; // by name
        std::set<std::string> buffers;            // declared so far
    };

    Location at(const YAML::Node &n, const Location &fallback = {}) const {
        YAML::Mark m = n.Mark();
        if (m.line < 0) return fallback.file.empty() ? Location{file_, 1, 1} : fallback;
        return Location{file_, m.line + 1, m.column + 1};
    }
    void error(const Location &where, const std::string &msg) {
        errors_.push_back(Diagnostic{where, msg});
    }

    bool expect_map(const YAML::Node &n, const std::string &what, const Location &fb) {
        if (n.IsMap()) return true;
        error(at(n, fb), "expected " + what + " (a map), found " + type_name(n));
        return false;
    }
    bool expect_scalar(const YAML::Node &n, const std::string &what, const Location &fb) {
        if (n.IsScalar()) return true;
        error(at(n, fb), "expected " + what + " (a scalar), found " + type_name(n));
        return false;
    }

    // Checks the keys of a map against the allowed ones (unknown or repeated
    // keys are errors: a typo must never silently drop a check).
    template <typename List>
    void check_keys(const YAML::Node &map, const List &allowed, const std::string &where) {
        std::set<std::string> seen;
        for (auto it = map.begin(); it != map.end(); ++it) {
            if (!it->first.IsScalar()) {
                error(at(it->first), "expected a key name in " + where);
                continue;
            }
            std::string k = it->first.Scalar();
            if (!seen.insert(k).second) {
                error(at(it->first), "key '" + k + "' repeated in " + where);
            } else if (!contains(allowed, k)) {
                error(at(it->first),
                      "unknown key '" + k + "' in " + where + ": expected one of " + join(allowed));
            }
        }
    }

    // Column of character `offset` inside a scalar: quoted scalars (tag "!")
    // start one column after their mark.
    Location inside(const YAML::Node &n, int offset) const {
        Location l = at(n);
        l.column += offset + (n.Tag() == "!" ? 1 : 0);
        return l;
    }

    std::optional<Expr> expression(const YAML::Node &n, const Scope &scope,
                                   const std::string &what);

    Suite suite(const YAML::Node &root);

    Case one_case(const YAML::Node &n);

    void matrix(const YAML::Node &m, Case &c, Scope &scope);
    // loader_matrix.cpp's parts: an axis's name, a selector axis (machine,
    // pair, device, triple), a value axis and one of its values. Each
    // returns false (after reporting) when the axis is not kept.
    bool axis_name(const YAML::Node &key, std::set<std::string> &seen, Axis &a);
    bool selector_axis(const YAML::Node &v, Axis &a);
    bool value_axis(const YAML::Node &v, Axis &a, bool &numbers);
    bool axis_value(const YAML::Node &x, Axis &a, bool &words, bool &numbers);

    // A word argument: a literal from `allowed`, or `$axis` naming a word axis
    // whose every value is allowed.
    bool word(const YAML::Node &n, const ArgSpec &spec, const Scope &scope, std::string &out);

    bool pointer(const YAML::Node &n, const ArgSpec &spec, const Scope &scope, PointerArg &out);

    bool pattern(const YAML::Node &n, const ArgSpec &spec, const Scope &scope, PatternArg &out);

    bool argument(const YAML::Node &n, const ArgSpec &spec, Scope &scope, Arg &a);

    static std::string known_codes();

    bool one_step(const YAML::Node &n, Scope &scope, Step &step);
    void step_args(const YAML::Node &body, const StepSpec &spec, Scope &scope, Step &step);

    void when(const YAML::Node &w, const Scope &scope, Step &step);
};

} // namespace harness::cases::detail
