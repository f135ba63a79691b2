#include "cases/loader.hpp"

#include "cases/hip_codes.hpp"
#include "cases/step_table.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace harness::cases {

namespace {

constexpr const char *kPairSelectors[] = {"all_pairs",    "distinct_pairs", "self_pairs",
                                          "peer_capable", "incapable",      "xgmi",
                                          "pcie",         "pcie_p2p",       "asymmetric"};
constexpr const char *kDeviceSelectors[] = {"all_devices"};
constexpr const char *kTripleSelectors[] = {"peer_capable_with_third"};
constexpr const char *kPeerModes[] = {"enabled", "disabled", "reverse_only"};
constexpr const char *kMachineSelectors[] = {"has_devices", "no_devices"};
constexpr const char *kStepModifiers[] = {"expect", "doc", "when"};

const char *type_name(const YAML::Node &n) {
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

template <typename List> std::string join(const List &words, const char *sep = ", ") {
    std::string out;
    for (const auto &w : words) {
        if (!out.empty()) out += sep;
        out += w;
    }
    return out;
}

template <typename List> bool contains(const List &words, const std::string &w) {
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

    void load(const std::string &text, std::vector<Suite> &out) {
        YAML::Node root;
        try {
            root = YAML::Load(text);
        } catch (const YAML::ParserException &e) {
            error(Location{file_, e.mark.line + 1, e.mark.column + 1},
                  "YAML syntax error: " + e.msg);
            return;
        } catch (const YAML::Exception &e) {
            error(Location{file_, 1, 1}, std::string("YAML error: ") + e.what());
            return;
        }
        size_t before = errors_.size();
        Suite s = suite(root);
        if (errors_.size() == before) out.push_back(std::move(s));
    }

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
                                   const std::string &what) {
        if (!expect_scalar(n, what, {})) return std::nullopt;
        auto r = Expr::parse(n.Scalar());
        if (auto *e = std::get_if<ExprError>(&r)) {
            error(inside(n, e->offset),
                  "bad expression '" + n.Scalar() + "' for " + what + ": " + e->message);
            return std::nullopt;
        }
        Expr x = std::get<Expr>(r);
        for (const auto &v : x.variables()) {
            if (scope.numeric_vars.count(v)) continue;
            std::string expected = "expected one of $" + join(scope.numeric_vars, ", $");
            auto axis = scope.axes.find(v);
            if (axis != scope.axes.end()) {
                error(at(n),
                      "$" + v + " holds words, not numbers, so it cannot be used in " + what);
            } else if (v.find('.') != std::string::npos) {
                error(at(n), "unknown variable $" + v + " in " + what +
                                 ": $NAME.bytes needs a buffer allocated by an earlier step");
            } else {
                error(at(n), "unknown variable $" + v + " in " + what + ": " + expected);
            }
            return std::nullopt;
        }
        return x;
    }

    Suite suite(const YAML::Node &root) {
        Suite s;
        s.file = file_;
        s.at = Location{file_, 1, 1};
        if (!expect_map(root, "a suite with keys suite, doc, cases", s.at)) return s;
        static constexpr const char *keys[] = {"suite", "doc", "cases"};
        check_keys(root, keys, "the suite");
        if (!root["suite"]) {
            error(at(root), "missing key 'suite': expected the suite's name");
        } else if (expect_scalar(root["suite"], "the suite name", {})) {
            s.name = root["suite"].Scalar();
            s.at = at(root["suite"]);
            if (!is_identifier(s.name))
                error(at(root["suite"]), "suite name '" + s.name +
                                             "' must be an identifier ([A-Za-z_][A-Za-z0-9_-]*)");
        }
        if (root["doc"] && expect_scalar(root["doc"], "a description", {}))
            s.doc = root["doc"].Scalar();
        YAML::Node cases = root["cases"];
        if (!cases) {
            error(at(root), "missing key 'cases': expected a list of cases");
            return s;
        }
        if (!cases.IsSequence() || cases.size() == 0) {
            error(at(cases), std::string("expected 'cases' to be a non-empty list, found ") +
                                 type_name(cases));
            return s;
        }
        std::set<std::string> names;
        for (const auto &c : cases) {
            Case k = one_case(c);
            if (!k.name.empty() && !names.insert(k.name).second)
                error(k.at, "case name '" + k.name + "' used twice in this suite");
            s.cases.push_back(std::move(k));
        }
        return s;
    }

    Case one_case(const YAML::Node &n) {
        Case c;
        c.at = at(n);
        if (!expect_map(n, "a case with keys name, doc, tags, disruptive, matrix, steps", c.at))
            return c;
        static constexpr const char *keys[] = {"name",       "doc",    "tags",
                                               "disruptive", "matrix", "steps"};
        check_keys(n, keys, "a case");
        if (!n["name"]) {
            error(at(n), "missing key 'name': expected the case's name");
        } else if (expect_scalar(n["name"], "the case name", {})) {
            c.name = n["name"].Scalar();
            c.at = at(n["name"]);
            if (!is_identifier(c.name))
                error(c.at,
                      "case name '" + c.name + "' must be an identifier ([A-Za-z_][A-Za-z0-9_-]*)");
        }
        if (n["doc"] && expect_scalar(n["doc"], "a description", {})) c.doc = n["doc"].Scalar();
        if (YAML::Node t = n["tags"]) {
            if (!t.IsSequence()) {
                error(at(t),
                      std::string("expected 'tags' to be a list of words, found ") + type_name(t));
            } else {
                for (const auto &tag : t) {
                    if (expect_scalar(tag, "a tag", {})) {
                        if (!is_identifier(tag.Scalar()))
                            error(at(tag), "tag '" + tag.Scalar() + "' must be an identifier");
                        c.tags.push_back(tag.Scalar());
                    }
                }
            }
        }
        if (YAML::Node d = n["disruptive"]) {
            if (d.IsScalar() && (d.Scalar() == "true" || d.Scalar() == "false"))
                c.disruptive = d.Scalar() == "true";
            else
                error(at(d), "expected 'disruptive' to be true or false");
        }
        Scope scope;
        scope.numeric_vars.insert("device_count");
        if (YAML::Node m = n["matrix"]) matrix(m, c, scope);
        YAML::Node steps = n["steps"];
        if (!steps) {
            error(c.at, "missing key 'steps': expected a list of steps");
            return c;
        }
        if (!steps.IsSequence() || steps.size() == 0) {
            error(at(steps), std::string("expected 'steps' to be a non-empty list, found ") +
                                 type_name(steps));
            return c;
        }
        for (const auto &st : steps) {
            Step step;
            if (one_step(st, scope, step)) c.steps.push_back(std::move(step));
        }
        for (const auto &st : c.steps) {
            const Arg *must = st.arg("must");
            if (must && (must->word == "fault" || must->word == "not_return_data"))
                c.disruptive = true; // a VM fault on purpose: never by surprise on a desktop
        }
        return c;
    }

    void matrix(const YAML::Node &m, Case &c, Scope &scope) {
        if (!expect_map(m, "a matrix of axis: values", at(m))) return;
        bool has_pair = false;
        const Axis *peer_mode = nullptr;
        Location peer_mode_at;
        int device_axes = 0;
        std::set<std::string> seen;
        for (auto it = m.begin(); it != m.end(); ++it) {
            Axis a;
            a.at = at(it->first);
            if (!it->first.IsScalar() || !is_identifier(it->first.Scalar())) {
                error(a.at, "expected an axis name (an identifier)");
                continue;
            }
            a.name = it->first.Scalar();
            if (!seen.insert(a.name).second) {
                error(a.at, "axis '" + a.name + "' repeated");
                continue;
            }
            if (a.name == "a" || a.name == "b" || a.name == "c" || a.name == "device_count") {
                error(a.at, "axis name '" + a.name +
                                "' is reserved (device variables are bound by pair, device, "
                                "triple)");
                continue;
            }
            const YAML::Node v = it->second; // a copy: *it is a temporary proxy
            if (a.name == "machine") {
                a.kind = AxisKind::machine;
                if (!expect_scalar(v, "a machine selector", a.at)) continue;
                if (!contains(kMachineSelectors, v.Scalar())) {
                    error(at(v), "unknown selector '" + v.Scalar() +
                                     "' for axis machine: expected one of " +
                                     join(kMachineSelectors));
                    continue;
                }
                a.selector = v.Scalar();
                c.axes.push_back(std::move(a));
                continue;
            }
            if (a.name == "pair" || a.name == "device" || a.name == "triple") {
                a.kind = a.name == "pair"     ? AxisKind::pair
                         : a.name == "device" ? AxisKind::device
                                              : AxisKind::triple;
                std::vector<std::string> allowed;
                if (a.kind == AxisKind::pair)
                    allowed.assign(std::begin(kPairSelectors), std::end(kPairSelectors));
                if (a.kind == AxisKind::device)
                    allowed.assign(std::begin(kDeviceSelectors), std::end(kDeviceSelectors));
                if (a.kind == AxisKind::triple)
                    allowed.assign(std::begin(kTripleSelectors), std::end(kTripleSelectors));
                if (!expect_scalar(v, "a selector", a.at)) continue;
                if (!contains(allowed, v.Scalar())) {
                    error(at(v), "unknown selector '" + v.Scalar() + "' for axis " + a.name +
                                     ": expected one of " + join(allowed));
                    continue;
                }
                a.selector = v.Scalar();
                ++device_axes;
                has_pair = has_pair || a.kind == AxisKind::pair;
                scope.numeric_vars.insert("a");
                if (a.kind != AxisKind::device) scope.numeric_vars.insert("b");
                if (a.kind == AxisKind::triple) scope.numeric_vars.insert("c");
                c.axes.push_back(std::move(a));
                continue;
            }
            std::vector<YAML::Node> items;
            if (v.IsSequence()) {
                for (const auto &x : v)
                    items.push_back(x);
            } else if (v.IsScalar()) {
                items.push_back(v);
            }
            if (items.empty()) {
                error(at(v, a.at), "expected axis '" + a.name +
                                       "' to be a value or a non-empty list, found " +
                                       type_name(v));
                continue;
            }
            a.kind = a.name == "peer_mode" ? AxisKind::peer_mode : AxisKind::values;
            bool words = false, numbers = false, bad = false;
            std::set<std::string> texts;
            for (const auto &x : items) {
                if (!expect_scalar(x, "an axis value", a.at)) {
                    bad = true;
                    continue;
                }
                AxisValue av;
                av.text = x.Scalar();
                av.at = at(x);
                if (!texts.insert(av.text).second) {
                    error(av.at, "value '" + av.text + "' repeated in axis " + a.name);
                    bad = true;
                    continue;
                }
                if (a.kind == AxisKind::peer_mode) {
                    if (!contains(kPeerModes, av.text)) {
                        error(av.at, "unknown peer mode '" + av.text + "': expected one of " +
                                         join(kPeerModes));
                        bad = true;
                    }
                    av.is_word = true;
                } else if (!av.text.empty() &&
                           std::isalpha(static_cast<unsigned char>(av.text[0]))) {
                    if (!is_identifier(av.text)) {
                        error(av.at, "value '" + av.text +
                                         "' starts with a letter, so it must be a word "
                                         "(an identifier); numbers start with a digit");
                        bad = true;
                    }
                    av.is_word = true;
                    words = true;
                } else {
                    // Axis values may not read variables: they are the variables.
                    auto r = Expr::parse(av.text);
                    if (auto *e = std::get_if<ExprError>(&r)) {
                        error(inside(x, e->offset), "bad expression '" + av.text + "' in axis " +
                                                        a.name + ": " + e->message);
                        bad = true;
                        continue;
                    }
                    av.expr = std::get<Expr>(r);
                    // Axis values are the variables; they may only read the
                    // machine's device count (`bad: [-1, $device_count]`).
                    bool constant = true;
                    for (const auto &v : av.expr.variables())
                        constant = constant && v == "device_count";
                    if (!constant) {
                        error(av.at, "axis values may use no $variable but $device_count: '" +
                                         av.text + "'");
                        bad = true;
                        continue;
                    }
                    numbers = true;
                }
                a.values.push_back(std::move(av));
            }
            if (words && numbers) {
                error(a.at, "axis '" + a.name + "' mixes words and numbers: expected one kind");
                bad = true;
            }
            if (bad) continue;
            if (a.kind == AxisKind::values && numbers) scope.numeric_vars.insert(a.name);
            if (a.kind == AxisKind::peer_mode) peer_mode_at = a.at;
            c.axes.push_back(std::move(a));
        }
        for (const auto &a : c.axes) {
            bool word_axis = a.kind == AxisKind::peer_mode ||
                             (a.kind == AxisKind::values && a.values.front().is_word);
            if (!word_axis) continue;
            scope.axes[a.name] = &a;
            if (a.kind == AxisKind::peer_mode) peer_mode = &a;
        }
        if (device_axes > 1) error(at(m), "a matrix may hold only one of pair, device, triple");
        if (peer_mode && !has_pair)
            error(peer_mode_at, "axis peer_mode needs a pair axis: it says which of $a, $b "
                                "enabled access to the other");
    }

    // A word argument: a literal from `allowed`, or `$axis` naming a word axis
    // whose every value is allowed.
    bool word(const YAML::Node &n, const ArgSpec &spec, const Scope &scope, std::string &out) {
        if (n.IsNull() && contains(spec.words, std::string("null"))) {
            out = "null"; // YAML reads a bare `null` as no value at all
            return true;
        }
        if (!expect_scalar(n, std::string(spec.name) + ": " + spec.help, {})) return false;
        std::string w = n.Scalar();
        if (!w.empty() && w[0] == '$') {
            auto it = scope.axes.find(w.substr(1));
            if (it == scope.axes.end()) {
                error(at(n),
                      "unknown word axis " + w + " for " + spec.name + ": expected " + spec.help);
                return false;
            }
            for (const auto &v : it->second->values) {
                if (!contains(spec.words, v.text)) {
                    error(v.at, "axis value '" + v.text + "' is used as " + spec.name +
                                    " but is not one of: " + spec.help);
                    return false;
                }
            }
            out = w;
            return true;
        }
        if (!contains(spec.words, w)) {
            error(at(n), "unknown value '" + w + "' for " + spec.name + ": expected " + spec.help);
            return false;
        }
        out = w;
        return true;
    }

    bool pointer(const YAML::Node &n, const ArgSpec &spec, const Scope &scope, PointerArg &out) {
        if (n.IsNull()) {
            out.base = PointerArg::Base::null;
            return true;
        }
        if (n.IsScalar()) {
            const std::string &s = n.Scalar();
            if (s == "host") {
                out.base = PointerArg::Base::host;
                return true;
            }
            if (!scope.buffers.count(s)) {
                error(at(n),
                      "unknown buffer '" + s + "' for " + spec.name + ": expected " + spec.help +
                          (scope.buffers.empty() ? std::string(" (no buffer allocated yet)")
                                                 : " (buffers: " + join(scope.buffers) + ")"));
                return false;
            }
            out.base = PointerArg::Base::buffer;
            out.buffer = s;
            return true;
        }
        if (!n.IsMap()) {
            error(at(n), std::string("expected ") + spec.name + " to be " + spec.help + ", found " +
                             type_name(n));
            return false;
        }
        static constexpr const char *keys[] = {"buffer", "offset"};
        size_t before = errors_.size();
        check_keys(n, keys, std::string("pointer ") + spec.name);
        if (!n["buffer"]) {
            error(at(n), std::string("missing key 'buffer' in pointer ") + spec.name);
            return false;
        }
        if (!expect_scalar(n["buffer"], "a buffer name", {})) return false;
        if (!scope.buffers.count(n["buffer"].Scalar())) {
            error(at(n["buffer"]), "unknown buffer '" + n["buffer"].Scalar() + "' for " +
                                       spec.name + ": expected a buffer allocated earlier");
            return false;
        }
        out.base = PointerArg::Base::buffer;
        out.buffer = n["buffer"].Scalar();
        if (n["offset"]) {
            auto e = expression(n["offset"], scope, std::string(spec.name) + ".offset");
            if (!e) return false;
            out.offset = *e;
        }
        return errors_.size() == before;
    }

    bool pattern(const YAML::Node &n, const ArgSpec &spec, const Scope &scope, PatternArg &out) {
        if (n.IsScalar() && n.Scalar() == "none") {
            out.kind = "none";
            return true;
        }
        if (!n.IsMap()) {
            error(at(n), std::string("expected ") + spec.name + " to be " + spec.help + ", found " +
                             type_name(n));
            return false;
        }
        static constexpr const char *keys[] = {"pattern", "seed"};
        size_t before = errors_.size();
        check_keys(n, keys, spec.name);
        static constexpr const char *kinds[] = {"lfsr", "index"};
        ArgSpec ps{"pattern", ArgKind::word, true, "lfsr or index", kinds};
        if (!n["pattern"]) {
            error(at(n), std::string("missing key 'pattern' in ") + spec.name +
                             ": expected lfsr or index");
            return false;
        }
        if (!word(n["pattern"], ps, scope, out.kind)) return false;
        if (n["seed"]) {
            auto e = expression(n["seed"], scope, "seed");
            if (!e) return false;
            out.seed = *e;
        }
        return errors_.size() == before;
    }

    bool argument(const YAML::Node &n, const ArgSpec &spec, Scope &scope, Arg &a) {
        a.at = at(n);
        a.text = n.IsScalar() ? n.Scalar() : std::string();
        switch (spec.kind) {
        case ArgKind::expr: {
            auto e = expression(n, scope, spec.name);
            if (!e) return false;
            a.expr = *e;
            return true;
        }
        case ArgKind::check: {
            if (!expect_scalar(n, std::string(spec.name) + ": " + spec.help, {})) return false;
            if (n.Scalar() == "topology") {
                a.check.kind = CheckArg::Kind::topology;
                return true;
            }
            if (n.Scalar() == "untouched") {
                a.check.kind = CheckArg::Kind::untouched;
                return true;
            }
            auto e = expression(n, scope, spec.name);
            if (!e) return false;
            a.check.value = *e;
            return true;
        }
        case ArgKind::buffer_def:
            if (!expect_scalar(n, "a buffer name", {})) return false;
            if (!is_identifier(n.Scalar())) {
                error(at(n), "buffer name '" + n.Scalar() + "' must be an identifier");
                return false;
            }
            if (scope.buffers.count(n.Scalar())) {
                error(at(n), "buffer '" + n.Scalar() + "' already allocated in this case");
                return false;
            }
            a.word = n.Scalar();
            return true;
        case ArgKind::buffer_ref:
            if (!expect_scalar(n, "a buffer name", {})) return false;
            if (!scope.buffers.count(n.Scalar())) {
                error(at(n), "unknown buffer '" + n.Scalar() + "' for " + spec.name +
                                 ": expected a buffer allocated by an earlier alloc");
                return false;
            }
            a.word = n.Scalar();
            return true;
        case ArgKind::pointer:
            return pointer(n, spec, scope, a.pointer);
        case ArgKind::pattern:
            return pattern(n, spec, scope, a.pattern);
        case ArgKind::word:
            return word(n, spec, scope, a.word);
        case ArgKind::hip_code:
            if (!expect_scalar(n, "a HIP error name", {})) return false;
            if (!n.Scalar().empty() && n.Scalar()[0] == '$') {
                // A word axis of HIP names, each one checked here.
                auto it = scope.axes.find(n.Scalar().substr(1));
                if (it == scope.axes.end()) {
                    error(at(n), "unknown word axis " + n.Scalar() + " for " + spec.name +
                                     ": expected a HIP error name or a word axis of them");
                    return false;
                }
                for (const auto &v : it->second->values) {
                    if (!hip_code_value(v.text)) {
                        error(v.at, "unknown HIP error name '" + v.text + "' in axis " + it->first +
                                        ": expected one of " + known_codes());
                        return false;
                    }
                }
                a.word = n.Scalar();
                return true;
            }
            if (!hip_code_value(n.Scalar())) {
                error(at(n), "unknown HIP error name '" + n.Scalar() + "': expected one of " +
                                 known_codes());
                return false;
            }
            a.word = n.Scalar();
            return true;
        }
        return false;
    }

    static std::string known_codes() {
        std::vector<std::string> names;
        for (const auto &c : hip_codes())
            names.emplace_back(c.name);
        return join(names);
    }

    bool one_step(const YAML::Node &n, Scope &scope, Step &step) {
        step.at = at(n);
        if (!expect_map(n, "a step such as `set_device: $a`", step.at)) return false;
        size_t before = errors_.size();
        YAML::Node body;
        for (auto it = n.begin(); it != n.end(); ++it) {
            if (!it->first.IsScalar()) {
                error(at(it->first), "expected a step name");
                continue;
            }
            std::string k = it->first.Scalar();
            if (contains(kStepModifiers, k)) continue;
            const StepSpec *spec = find_step(k);
            if (!spec) {
                std::vector<std::string> names;
                for (const auto &s : step_specs())
                    names.emplace_back(s.name);
                error(at(it->first), "unknown step '" + k + "': expected one of " + join(names) +
                                         " (with optional expect, doc, when)");
                continue;
            }
            if (step.spec) {
                error(at(it->first), "a step holds one action; found '" + k + "' after '" +
                                         step.spec->name + "' (start a new list item with -)");
                continue;
            }
            step.spec = spec;
            step.at = at(it->first);
            body = it->second;
        }
        if (errors_.size() != before) return false;
        if (!step.spec) {
            error(step.at, "step has no action: expected one of the step names");
            return false;
        }
        const StepSpec &spec = *step.spec;
        if (n["doc"] && expect_scalar(n["doc"], "the documentation sentence", {}))
            step.doc = n["doc"].Scalar();
        if (YAML::Node e = n["expect"]) {
            if (!spec.takes_expect) {
                error(at(e), std::string("step ") + spec.name +
                                 " takes no 'expect' (it checks data, not a return code)");
            } else if (expect_scalar(e, "a HIP error name", {})) {
                auto v = hip_code_value(e.Scalar());
                if (!v) {
                    error(at(e), "unknown HIP error name '" + e.Scalar() + "': expected one of " +
                                     known_codes());
                } else {
                    step.expect = *v;
                    step.expect_name = e.Scalar();
                    step.expect_written = true;
                }
            }
        }
        if (YAML::Node w = n["when"]) when(w, scope, step);

        // The action's arguments: a map, or a scalar standing for the shorthand.
        if (body.IsMap()) {
            std::vector<std::string> allowed;
            for (const auto &a : spec.args)
                allowed.emplace_back(a.name);
            check_keys(body, allowed, std::string("step ") + spec.name);
            for (const auto &a : spec.args) {
                if (YAML::Node v = body[a.name]) {
                    Arg arg;
                    if (argument(v, a, scope, arg)) step.args[a.name] = std::move(arg);
                } else if (a.required) {
                    error(at(body, step.at), std::string("step ") + spec.name + " is missing '" +
                                                 a.name + "': expected " + a.help);
                }
            }
        } else if (body.IsScalar() && spec.shorthand) {
            const ArgSpec *a = find_arg(spec, spec.shorthand);
            Arg arg;
            if (argument(body, *a, scope, arg)) step.args[a->name] = std::move(arg);
            for (const auto &other : spec.args) {
                if (other.required && std::string(other.name) != spec.shorthand)
                    error(at(body, step.at), std::string("step ") + spec.name + " is missing '" +
                                                 other.name + "': use the map form");
            }
        } else if (body.IsNull()) {
            for (const auto &a : spec.args) {
                if (a.required)
                    error(step.at, std::string("step ") + spec.name + " is missing '" + a.name +
                                       "': expected " + a.help);
            }
        } else {
            error(at(body, step.at),
                  std::string("expected the arguments of ") + spec.name + " as a map" +
                      (spec.shorthand ? std::string(" or a single ") + spec.shorthand
                                      : std::string()) +
                      ", found " + type_name(body));
        }
        if (errors_.size() != before) return false;
        if (spec.kind == StepKind::alloc) {
            scope.buffers.insert(step.args.at("as").word);
            scope.numeric_vars.insert(step.args.at("as").word + ".bytes");
        }
        return true;
    }

    void when(const YAML::Node &w, const Scope &scope, Step &step) {
        if (!expect_map(w, "a map of axis: value(s)", at(w))) return;
        for (auto it = w.begin(); it != w.end(); ++it) {
            WhenClause c;
            c.at = at(it->first);
            c.axis = it->first.Scalar();
            auto ax = scope.axes.find(c.axis);
            if (ax == scope.axes.end()) {
                std::vector<std::string> names;
                for (const auto &kv : scope.axes)
                    names.push_back(kv.first);
                error(c.at, "when: unknown word axis '" + c.axis + "': expected one of " +
                                (names.empty() ? std::string("(this case has no word axes)")
                                               : join(names)));
                continue;
            }
            std::vector<YAML::Node> items;
            if (it->second.IsSequence()) {
                for (const auto &x : it->second)
                    items.push_back(x);
            } else {
                items.push_back(it->second);
            }
            for (const auto &x : items) {
                if (!expect_scalar(x, "an axis value", c.at)) continue;
                bool known = false;
                for (const auto &v : ax->second->values)
                    known = known || v.text == x.Scalar();
                if (!known) {
                    std::vector<std::string> vals;
                    for (const auto &v : ax->second->values)
                        vals.push_back(v.text);
                    error(at(x), "when: '" + x.Scalar() + "' is not a value of axis " + c.axis +
                                     ": expected one of " + join(vals));
                    continue;
                }
                c.values.push_back(x.Scalar());
            }
            step.when.push_back(std::move(c));
        }
    }
};

} // namespace

bool is_identifier(const std::string &s) {
    if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
    return std::all_of(s.begin(), s.end(), [](char ch) {
        return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-';
    });
}

LoadResult load_string(const std::string &text, const std::string &file) {
    LoadResult r;
    FileLoader(file, r.errors).load(text, r.suites);
    if (!r.errors.empty()) r.suites.clear();
    return r;
}

LoadResult load_file(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        LoadResult r;
        r.errors.push_back(Diagnostic{Location{path, 0, 0},
                                      "cannot open case file: expected a readable YAML file"});
        return r;
    }
    std::ostringstream ss;
    ss << in.rdbuf();
    return load_string(ss.str(), path);
}

LoadResult load_paths(const std::vector<std::string> &paths) {
    namespace fs = std::filesystem;
    LoadResult all;
    std::vector<std::string> files;
    for (const auto &p : paths) {
        std::error_code ec;
        if (fs::is_directory(p, ec)) {
            std::vector<std::string> found;
            for (const auto &e : fs::directory_iterator(p, ec)) {
                if (e.path().extension() == ".yaml") found.push_back(e.path().string());
            }
            std::sort(found.begin(), found.end());
            if (found.empty())
                all.errors.push_back(
                    Diagnostic{Location{p, 0, 0}, "directory holds no *.yaml case files"});
            files.insert(files.end(), found.begin(), found.end());
        } else {
            files.push_back(p);
        }
    }
    std::map<std::string, Location> names;
    for (const auto &f : files) {
        LoadResult r = load_file(f);
        all.errors.insert(all.errors.end(), r.errors.begin(), r.errors.end());
        for (auto &s : r.suites) {
            auto [it, fresh] = names.emplace(s.name, s.at);
            if (!fresh) {
                all.errors.push_back(Diagnostic{s.at, "suite '" + s.name + "' already defined at " +
                                                          it->second.file + ":" +
                                                          std::to_string(it->second.line)});
                continue;
            }
            all.suites.push_back(std::move(s));
        }
    }
    if (!all.errors.empty()) all.suites.clear();
    return all;
}

} // namespace harness::cases
