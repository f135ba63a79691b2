#include "loader_impl.hpp"

namespace harness::cases::detail {

// A word argument: a literal from `allowed`, or `$axis` naming a word axis
// whose every value is allowed.
bool FileLoader::word(const YAML::Node &n, const ArgSpec &spec, const Scope &scope,
                      std::string &out) {
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

bool FileLoader::pointer(const YAML::Node &n, const ArgSpec &spec, const Scope &scope,
                         PointerArg &out) {
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
            error(at(n), "unknown buffer '" + s + "' for " + spec.name + ": expected " + spec.help +
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
        error(at(n["buffer"]), "unknown buffer '" + n["buffer"].Scalar() + "' for " + spec.name +
                                   ": expected a buffer allocated earlier");
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

bool FileLoader::pattern(const YAML::Node &n, const ArgSpec &spec, const Scope &scope,
                         PatternArg &out) {
    if (n.IsScalar() && (n.Scalar() == "none" || n.Scalar() == "cleared")) {
        out.kind = n.Scalar();
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
        error(at(n),
              std::string("missing key 'pattern' in ") + spec.name + ": expected lfsr or index");
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

bool FileLoader::argument(const YAML::Node &n, const ArgSpec &spec, Scope &scope, Arg &a) {
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
                             ": expected a name given by an earlier step's `as:` (alloc, "
                             "kernel_bo, kernel_cs)");
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
            error(at(n),
                  "unknown HIP error name '" + n.Scalar() + "': expected one of " + known_codes());
            return false;
        }
        a.word = n.Scalar();
        return true;
    }
    return false;
}

std::string FileLoader::known_codes() {
    std::vector<std::string> names;
    for (const auto &c : hip_codes())
        names.emplace_back(c.name);
    return join(names);
}

// The shorthand argument takes `null` as a value (a pointer, or a word list
// with null in it), so a bare `null` after the step name is that value.
static bool null_shorthand(const StepSpec &spec) {
    if (!spec.shorthand) return false;
    const ArgSpec *a = find_arg(spec, spec.shorthand);
    return a && (a->kind == ArgKind::pointer || contains(a->words, std::string("null")));
}

// The action's arguments: a map, or a scalar standing for the shorthand, or
// nothing when no argument is required.
void FileLoader::step_args(const YAML::Node &body, const StepSpec &spec, Scope &scope, Step &step) {
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
    } else if ((body.IsScalar() || (body.IsNull() && null_shorthand(spec))) && spec.shorthand) {
        // `host_free: null` is the shorthand with a NULL pointer, not a step
        // without arguments.
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
                  (spec.shorthand ? std::string(" or a single ") + spec.shorthand : std::string()) +
                  ", found " + type_name(body));
    }
}

bool FileLoader::one_step(const YAML::Node &n, Scope &scope, Step &step) {
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

    step_args(body, spec, scope, step);
    if (errors_.size() != before) return false;
    // `as` names a buffer (alloc) or a kernel object (kernel_bo, kernel_cs)
    // that later steps refer to.
    if (auto as = step.args.find("as"); as != step.args.end()) {
        scope.buffers.insert(as->second.word);
        scope.numeric_vars.insert(as->second.word + ".bytes");
    }
    return true;
}

void FileLoader::when(const YAML::Node &w, const Scope &scope, Step &step) {
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
            error(c.at,
                  "when: unknown word axis '" + c.axis + "': expected one of " +
                      (names.empty() ? std::string("(this case has no word axes)") : join(names)));
            continue;
        }
        // A copy of the value node: `it->second` lives in a temporary proxy
        // that a range-for over it would outlive (ASan: stack-use-after-scope).
        const YAML::Node value = it->second;
        std::vector<YAML::Node> items;
        if (value.IsSequence()) {
            for (const auto &x : value)
                items.push_back(x);
        } else {
            items.push_back(value);
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

} // namespace harness::cases::detail
