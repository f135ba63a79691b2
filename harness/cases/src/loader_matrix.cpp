#include "loader_impl.hpp"

#include <cctype>

namespace harness::cases::detail {

void FileLoader::matrix(const YAML::Node &m, Case &c, Scope &scope) {
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
                                 "' for axis machine: expected one of " + join(kMachineSelectors));
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
                                   "' to be a value or a non-empty list, found " + type_name(v));
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
            } else if (!av.text.empty() && std::isalpha(static_cast<unsigned char>(av.text[0]))) {
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
                    error(inside(x, e->offset),
                          "bad expression '" + av.text + "' in axis " + a.name + ": " + e->message);
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
                    error(av.at,
                          "axis values may use no $variable but $device_count: '" + av.text + "'");
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
        // `path` names the kernel path the peer API drives for the instance
        // (harness/peer/CONTRACT.md §7); the runner starts the instance's
        // process on it, so only the two paths the library has are values.
        if (a.name == "path")
            for (const auto &v : a.values)
                if (v.text != "drm" && v.text != "kfd") {
                    error(v.at, "unknown kernel path '" + v.text + "': expected one of drm, kfd");
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

} // namespace harness::cases::detail
