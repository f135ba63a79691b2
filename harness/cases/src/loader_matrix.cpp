#include "loader_impl.hpp"

#include <cctype>

namespace harness::cases::detail {

bool FileLoader::axis_name(const YAML::Node &key, std::set<std::string> &seen, Axis &a) {
    a.at = at(key);
    if (!key.IsScalar() || !is_identifier(key.Scalar())) {
        error(a.at, "expected an axis name (an identifier)");
        return false;
    }
    a.name = key.Scalar();
    if (!seen.insert(a.name).second) {
        error(a.at, "axis '" + a.name + "' repeated");
        return false;
    }
    if (a.name == "a" || a.name == "b" || a.name == "c" || a.name == "device_count") {
        error(a.at, "axis name '" + a.name +
                        "' is reserved (device variables are bound by pair, device, "
                        "triple)");
        return false;
    }
    return true;
}

// machine: has_devices | no_devices; pair / device / triple: a topology
// selector (topology.hpp).
bool FileLoader::selector_axis(const YAML::Node &v, Axis &a) {
    std::vector<std::string> allowed;
    if (a.name == "machine") {
        a.kind = AxisKind::machine;
        allowed.assign(std::begin(kMachineSelectors), std::end(kMachineSelectors));
    } else if (a.name == "pair") {
        a.kind = AxisKind::pair;
        allowed.assign(std::begin(kPairSelectors), std::end(kPairSelectors));
    } else if (a.name == "device") {
        a.kind = AxisKind::device;
        allowed.assign(std::begin(kDeviceSelectors), std::end(kDeviceSelectors));
    } else {
        a.kind = AxisKind::triple;
        allowed.assign(std::begin(kTripleSelectors), std::end(kTripleSelectors));
    }
    if (!expect_scalar(v, a.kind == AxisKind::machine ? "a machine selector" : "a selector", a.at))
        return false;
    if (!contains(allowed, v.Scalar())) {
        error(at(v), "unknown selector '" + v.Scalar() + "' for axis " + a.name +
                         ": expected one of " + join(allowed));
        return false;
    }
    a.selector = v.Scalar();
    return true;
}

// One value of a value axis: a peer mode, a word, or a constant expression.
bool FileLoader::axis_value(const YAML::Node &x, Axis &a, bool &words, bool &numbers) {
    AxisValue av;
    av.text = x.Scalar();
    av.at = at(x);
    if (a.kind == AxisKind::peer_mode) {
        if (!contains(kPeerModes, av.text)) {
            error(av.at,
                  "unknown peer mode '" + av.text + "': expected one of " + join(kPeerModes));
            return false;
        }
        av.is_word = true;
    } else if (!av.text.empty() && std::isalpha(static_cast<unsigned char>(av.text[0]))) {
        if (!is_identifier(av.text)) {
            error(av.at, "value '" + av.text +
                             "' starts with a letter, so it must be a word "
                             "(an identifier); numbers start with a digit");
            return false;
        }
        av.is_word = true;
        words = true;
    } else {
        // Axis values may not read variables: they are the variables.
        auto r = Expr::parse(av.text);
        if (auto *e = std::get_if<ExprError>(&r)) {
            error(inside(x, e->offset),
                  "bad expression '" + av.text + "' in axis " + a.name + ": " + e->message);
            return false;
        }
        av.expr = std::get<Expr>(r);
        // Axis values are the variables; they may only read the machine's
        // device count (`bad: [-1, $device_count]`).
        for (const auto &var : av.expr.variables())
            if (var != "device_count") {
                error(av.at,
                      "axis values may use no $variable but $device_count: '" + av.text + "'");
                return false;
            }
        numbers = true;
    }
    a.values.push_back(std::move(av));
    return true;
}

// A value axis (peer_mode, path, or any other name): one value or a
// non-empty list, all words or all numbers.
bool FileLoader::value_axis(const YAML::Node &v, Axis &a, bool &numbers) {
    std::vector<YAML::Node> items;
    if (v.IsSequence()) {
        for (const auto &x : v)
            items.push_back(x);
    } else if (v.IsScalar()) {
        items.push_back(v);
    }
    if (items.empty()) {
        error(at(v, a.at), "expected axis '" + a.name +
                               "' to be a value or a non-empty list, found " + type_name(v));
        return false;
    }
    a.kind = a.name == "peer_mode" ? AxisKind::peer_mode : AxisKind::values;
    bool words = false, bad = false;
    std::set<std::string> texts;
    for (const auto &x : items) {
        if (!expect_scalar(x, "an axis value", a.at)) {
            bad = true;
            continue;
        }
        if (!texts.insert(x.Scalar()).second) {
            error(at(x), "value '" + x.Scalar() + "' repeated in axis " + a.name);
            bad = true;
            continue;
        }
        bad = !axis_value(x, a, words, numbers) || bad;
    }
    if (words && numbers) {
        error(a.at, "axis '" + a.name + "' mixes words and numbers: expected one kind");
        bad = true;
    }
    // `path` names the kernel path the peer API drives for the instance
    // (harness/peer/CONTRACT.md §7); the runner starts the instance's
    // process on it, so only the two paths the library has are values.
    if (a.name == "path")
        for (const auto &pv : a.values)
            if (pv.text != "drm" && pv.text != "kfd") {
                error(pv.at, "unknown kernel path '" + pv.text + "': expected one of drm, kfd");
                bad = true;
            }
    return !bad;
}

void FileLoader::matrix(const YAML::Node &m, Case &c, Scope &scope) {
    if (!expect_map(m, "a matrix of axis: values", at(m))) return;
    bool has_pair = false;
    Location peer_mode_at;
    int device_axes = 0;
    std::set<std::string> seen;
    for (auto it = m.begin(); it != m.end(); ++it) {
        Axis a;
        if (!axis_name(it->first, seen, a)) continue;
        const YAML::Node v = it->second; // a copy: *it is a temporary proxy
        if (a.name == "machine" || a.name == "pair" || a.name == "device" || a.name == "triple") {
            if (!selector_axis(v, a)) continue;
            if (a.kind != AxisKind::machine) {
                ++device_axes;
                has_pair = has_pair || a.kind == AxisKind::pair;
                scope.numeric_vars.insert("a");
                if (a.kind != AxisKind::device) scope.numeric_vars.insert("b");
                if (a.kind == AxisKind::triple) scope.numeric_vars.insert("c");
            }
            c.axes.push_back(std::move(a));
            continue;
        }
        bool numbers = false;
        if (!value_axis(v, a, numbers)) continue;
        if (a.kind == AxisKind::values && numbers) scope.numeric_vars.insert(a.name);
        if (a.kind == AxisKind::peer_mode) peer_mode_at = a.at;
        c.axes.push_back(std::move(a));
    }
    const Axis *peer_mode = nullptr;
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

} // namespace harness::cases::detail
