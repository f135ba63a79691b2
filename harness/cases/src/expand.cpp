#include "cases/expand.hpp"

#include "cases/covering.hpp"
#include "cases/step_table.hpp"

#include <algorithm>
#include <set>

namespace harness::cases {

const char *depth_name(Depth d) {
    return d == Depth::quick ? "quick" : "full";
}

bool Instance::runs(const Step &s) const {
    for (const auto &w : s.when) {
        auto it = words.find(w.axis);
        if (it == words.end()) return false;
        if (std::find(w.values.begin(), w.values.end(), it->second) == w.values.end()) return false;
    }
    return true;
}

std::optional<int64_t> Instance::lookup(const std::string &var,
                                        const std::map<std::string, int64_t> &extra) const {
    if (auto it = extra.find(var); it != extra.end()) return it->second;
    if (auto it = numbers.find(var); it != numbers.end()) return it->second;
    return std::nullopt;
}

namespace {

// FNV-1a: a stable per-case seed, so adding a case never reshuffles another.
uint64_t fnv1a(const std::string &s) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char c : s) {
        h ^= c;
        h *= 0x100000001b3ull;
    }
    return h;
}

struct Choices {
    const Axis *axis = nullptr;
    std::vector<std::string> texts;
    std::vector<DeviceTuple> tuples; // selector axes only
};

std::string tuple_text(AxisKind k, const DeviceTuple &t) {
    if (k == AxisKind::device) return std::to_string(t.a);
    std::string s = std::to_string(t.a) + ">" + std::to_string(t.b);
    if (k == AxisKind::triple) s += "+" + std::to_string(t.c);
    return s;
}

// peer_mode says which side enabled access: enabled = the destination $b
// enabled access to the source $a (needs b -> a), reverse_only = $a enabled
// access to $b (needs a -> b), disabled = nobody.
bool mode_fits(const Topology &t, const DeviceTuple &p, const std::string &mode) {
    if (mode == "enabled") return t.can_access(p.b, p.a);
    if (mode == "reverse_only") return t.can_access(p.a, p.b);
    return true;
}

std::string link_tag(const Topology &t, const DeviceTuple &p) {
    if (p.a == p.b) return "self";
    LinkType l = t.link_type(p.a, p.b);
    if (l == LinkType::xgmi) return "xgmi";
    return t.can_access(p.a, p.b) ? "pcie-p2p" : "no-peer";
}

class CaseExpander {
  public:
    CaseExpander(const Suite &s, const Case &c, const Topology &t, const ExpandOptions &o,
                 Expansion &out)
        : suite_(s), case_(c), topo_(t), opt_(o), out_(out) {}

    void run() {
        const std::string base = suite_.name + "/" + case_.name;
        std::vector<Choices> axes;
        int pair_axis = -1, mode_axis = -1;
        for (const auto &a : case_.axes) {
            Choices ch;
            ch.axis = &a;
            if (a.kind == AxisKind::machine) {
                const bool want_devices = a.selector == "has_devices";
                if ((topo_.device_count > 0) != want_devices) {
                    skipped(base + "/machine=" + a.selector,
                            std::string("runs only on a machine ") +
                                (want_devices ? "with at least one device" : "without any device") +
                                "; this one has " + std::to_string(topo_.device_count));
                    return;
                }
                ch.texts.push_back(a.selector);
                axes.push_back(std::move(ch));
                continue;
            }
            if (a.kind == AxisKind::pair || a.kind == AxisKind::device ||
                a.kind == AxisKind::triple) {
                ch.tuples = select(topo_, a.selector).value_or(std::vector<DeviceTuple>{});
                if (ch.tuples.empty()) {
                    skipped(base + "/" + a.name + "=none",
                            "this machine (" + std::to_string(topo_.device_count) +
                                " devices) has nothing matching selector " + a.selector + " (" +
                                describe_selector(a.selector) + ")");
                    return;
                }
                for (const auto &t : ch.tuples)
                    ch.texts.push_back(tuple_text(a.kind, t));
                if (a.kind == AxisKind::pair) pair_axis = static_cast<int>(axes.size());
            } else {
                for (const auto &v : a.values)
                    ch.texts.push_back(v.text);
                if (a.kind == AxisKind::peer_mode) mode_axis = static_cast<int>(axes.size());
            }
            axes.push_back(std::move(ch));
        }

        CoveringProblem prob;
        for (const auto &ch : axes)
            prob.sizes.push_back(static_cast<int>(ch.texts.size()));
        if (pair_axis >= 0 && mode_axis >= 0) {
            prob.compatible = [&, pair_axis, mode_axis](int i, int vi, int j, int vj) {
                if (i == pair_axis && j == mode_axis)
                    return mode_fits(topo_,
                                     axes[static_cast<size_t>(i)].tuples[static_cast<size_t>(vi)],
                                     axes[static_cast<size_t>(j)].texts[static_cast<size_t>(vj)]);
                if (j == pair_axis && i == mode_axis)
                    return mode_fits(topo_,
                                     axes[static_cast<size_t>(j)].tuples[static_cast<size_t>(vj)],
                                     axes[static_cast<size_t>(i)].texts[static_cast<size_t>(vi)]);
                return true;
            };
        }
        std::vector<Row> rows = opt_.depth == Depth::quick ? pairwise(prob, opt_.seed ^ fnv1a(base))
                                                           : cross_product(prob);

        // A value no row could use (peer_mode=enabled on a machine where no
        // selected pair can enable) is reported, not dropped.
        for (size_t ax = 0; ax < axes.size(); ++ax) {
            for (size_t v = 0; v < axes[ax].texts.size(); ++v) {
                bool used = std::any_of(rows.begin(), rows.end(),
                                        [&](const Row &r) { return r[ax] == static_cast<int>(v); });
                if (used) continue;
                std::string reason = "no combination on this machine allows " +
                                     axes[ax].axis->name + "=" + axes[ax].texts[v];
                if (axes[ax].axis->kind == AxisKind::peer_mode)
                    reason += " (no selected pair has the access it needs: enabled needs $b to "
                              "reach $a, reverse_only needs $a to reach $b)";
                skipped(base + "/" + axes[ax].axis->name + "=" + axes[ax].texts[v], reason);
            }
        }
        for (const auto &r : rows)
            instance(base, axes, r);
    }

  private:
    const Suite &suite_;
    const Case &case_;
    const Topology &topo_;
    const ExpandOptions &opt_;
    Expansion &out_;

    Instance blank(const std::string &name) const {
        Instance in;
        in.suite = &suite_;
        in.kase = &case_;
        in.name = name;
        in.disruptive = case_.disruptive;
        in.tags = {suite_.name, case_.name};
        in.tags.insert(in.tags.end(), case_.tags.begin(), case_.tags.end());
        if (case_.disruptive) in.tags.push_back("disruptive");
        in.numbers["device_count"] = topo_.device_count;
        return in;
    }

    void skipped(const std::string &name, const std::string &reason) {
        Instance in = blank(name);
        in.skip_reason = reason;
        in.tags.push_back("skipped");
        out_.instances.push_back(std::move(in));
    }

    void instance(const std::string &base, const std::vector<Choices> &axes, const Row &row) {
        std::string name = base;
        for (size_t ax = 0; ax < axes.size(); ++ax)
            name += "/" + axes[ax].axis->name + "=" + axes[ax].texts[static_cast<size_t>(row[ax])];
        Instance in = blank(name);
        for (size_t ax = 0; ax < axes.size(); ++ax) {
            const Axis &a = *axes[ax].axis;
            const size_t v = static_cast<size_t>(row[ax]);
            in.params.emplace_back(a.name, axes[ax].texts[v]);
            if (a.kind == AxisKind::machine) continue; // binds nothing
            if (!axes[ax].tuples.empty()) {
                const DeviceTuple &t = axes[ax].tuples[v];
                in.numbers["a"] = t.a;
                if (t.b >= 0) in.numbers["b"] = t.b;
                if (t.c >= 0) in.numbers["c"] = t.c;
                if (a.kind != AxisKind::device) in.tags.push_back(link_tag(topo_, t));
            } else if (a.kind == AxisKind::peer_mode || a.values[v].is_word) {
                in.words[a.name] = a.values[v].text;
            } else {
                // Constant but for $device_count (the loader refuses other variables).
                auto r =
                    a.values[v].expr.evaluate([&](const std::string &n) -> std::optional<int64_t> {
                        if (n == "device_count") return topo_.device_count;
                        return std::nullopt;
                    });
                if (auto *e = std::get_if<std::string>(&r)) {
                    error(a.values[v].at, "axis " + a.name + " value '" + a.values[v].text +
                                              "' does not evaluate: " + *e);
                    return;
                }
                in.numbers[a.name] = std::get<int64_t>(r);
            }
        }
        check(in);
        out_.instances.push_back(std::move(in));
    }

    void error(const Location &at, const std::string &msg) {
        for (const auto &d : out_.errors)
            if (d.at.line == at.line && d.at.column == at.column && d.at.file == at.file) return;
        out_.errors.push_back(Diagnostic{at, msg});
    }

    // Evaluates every expression the instance will evaluate, in step order, so
    // a run never discovers a bad expression halfway.
    void check(const Instance &in) {
        std::map<std::string, int64_t> sizes;
        std::set<std::string> live;
        auto eval = [&](const Expr &e, const Location &at, const std::string &what, int64_t &out) {
            auto r = e.evaluate([&](const std::string &v) { return in.lookup(v, sizes); });
            if (auto *msg = std::get_if<std::string>(&r)) {
                error(at,
                      what + " '" + e.text() + "' does not evaluate in " + in.name + ": " + *msg);
                return false;
            }
            out = std::get<int64_t>(r);
            return true;
        };
        for (const auto &st : case_.steps) {
            if (!in.runs(st)) continue;
            for (const auto &[name, arg] : st.args) {
                const ArgSpec *spec = find_arg(*st.spec, name);
                int64_t v = 0;
                switch (spec->kind) {
                case ArgKind::expr:
                    if (!eval(arg.expr, arg.at, name, v)) return;
                    if ((name == "bytes" || name == "guard") && v < 0 &&
                        st.spec->kind == StepKind::alloc) {
                        error(arg.at, name + " evaluates to " + std::to_string(v) + " in " +
                                          in.name + ": expected a size >= 0");
                        return;
                    }
                    break;
                case ArgKind::check:
                    if (arg.check.kind == CheckArg::Kind::value &&
                        !eval(arg.check.value, arg.at, name, v))
                        return;
                    break;
                case ArgKind::pointer:
                    if (arg.pointer.base == PointerArg::Base::buffer) {
                        if (!sizes.count(arg.pointer.buffer + ".bytes")) {
                            error(arg.at, "buffer '" + arg.pointer.buffer +
                                              "' is not allocated in " + in.name +
                                              " (its alloc step is excluded by `when`)");
                            return;
                        }
                        if (!eval(arg.pointer.offset, arg.at, name + ".offset", v)) return;
                    }
                    break;
                case ArgKind::pattern:
                    if (arg.pattern.kind != "none" && arg.pattern.kind != "cleared" &&
                        !eval(arg.pattern.seed, arg.at, "seed", v))
                        return;
                    break;
                case ArgKind::buffer_ref:
                    if (!sizes.count(arg.word + ".bytes")) {
                        error(arg.at, "buffer '" + arg.word + "' is not allocated in " + in.name +
                                          " (its alloc step is excluded by `when`)");
                        return;
                    }
                    break;
                default:
                    break;
                }
            }
            if (auto as = st.args.find("as"); as != st.args.end()) {
                // A kernel job has no size: its name is defined with 0 bytes.
                int64_t bytes = 0;
                if (auto b = st.args.find("bytes"); b != st.args.end())
                    eval(b->second.expr, b->second.at, "bytes", bytes);
                sizes[as->second.word + ".bytes"] = bytes;
            }
        }
    }
};

} // namespace

Expansion expand(const std::vector<Suite> &suites, const Topology &topology,
                 const ExpandOptions &options) {
    Expansion out;
    for (const auto &s : suites)
        for (const auto &c : s.cases)
            CaseExpander(s, c, topology, options, out).run();
    // Names are identities (results, resume, test specs): two equal names
    // would merge two instances' results.
    std::set<std::string> names;
    for (const auto &in : out.instances) {
        if (!names.insert(in.name).second)
            out.errors.push_back(Diagnostic{in.kase->at, "two instances named " + in.name});
    }
    return out;
}

} // namespace harness::cases
