// The case model: what a case file says, after loading and validation, before
// it meets a machine. Pure data; the loader builds it, expansion reads it,
// the runner interprets its steps. Field meanings are the case language's
// (cases/README.md); nothing here depends on YAML or on the peer API.
#pragma once

#include "cases/expr.hpp"
#include "cases/location.hpp"

#include <map>
#include <string>
#include <vector>

namespace harness::cases {

struct StepSpec; // step_table.hpp

// A pointer operand: null, a host address, or a position inside a buffer the
// case allocated (the buffer's payload start plus `offset`).
struct PointerArg {
    enum class Base { null, host, buffer } base = Base::null;
    std::string buffer;
    Expr offset = Expr::constant(0);
};

// An expected value: a number, the topology's own answer, or "the output
// variable was not written".
struct CheckArg {
    enum class Kind { value, topology, untouched } kind = Kind::value;
    Expr value;
};

// A data pattern for filling a buffer: seeded, position-dependent, never all
// zeros (pattern.hpp); `none` leaves the contents unknown.
struct PatternArg {
    std::string kind = "lfsr"; // lfsr | index | none
    Expr seed = Expr::constant(1);
};

// One argument of a step, as written. Only the member matching the argument's
// kind (step_table.hpp) is meaningful.
struct Arg {
    Location at;
    std::string text; // source text, for messages
    Expr expr;
    CheckArg check;
    PointerArg pointer;
    PatternArg pattern;
    std::string word; // words, buffer names, HIP error names, free text
};

// `when: { peer_mode: [enabled, reverse_only] }`: the step runs only in
// instances whose axis takes one of these values.
struct WhenClause {
    std::string axis;
    std::vector<std::string> values;
    Location at;
};

struct Step {
    const StepSpec *spec = nullptr;
    Location at;
    std::map<std::string, Arg> args;
    int expect = 0; // HIP error value the call must return
    std::string expect_name = "hipSuccess";
    bool expect_written = false; // `expect:` appeared in the file
    std::string doc;             // the documentation sentence this step checks
    std::vector<WhenClause> when;

    const Arg *arg(const std::string &name) const {
        auto it = args.find(name);
        return it == args.end() ? nullptr : &it->second;
    }
};

// Matrix axes. Selector axes bind device variables ($a, $b, $c) from the
// machine's topology; value axes bind `$<name>` to each listed value.
enum class AxisKind {
    pair,      // binds $a, $b: an ordered pair chosen by a selector
    device,    // binds $a: one device chosen by a selector
    triple,    // binds $a, $b, $c: a peer-capable a->b and a third device c
    peer_mode, // enabled | disabled | reverse_only, constrained by the pair
    machine,   // has_devices | no_devices: the instance exists only on such a machine
    values,    // any other name: a list of expressions or words
};

struct AxisValue {
    std::string text; // as written: the instance name uses it (size=4Mi+1)
    bool is_word = false;
    Expr expr; // when !is_word
    Location at;
};

struct Axis {
    std::string name;
    AxisKind kind = AxisKind::values;
    std::string selector; // pair/device/triple axes
    std::vector<AxisValue> values;
    Location at;
};

struct Case {
    std::string name;
    std::string doc;
    Location at;
    std::vector<std::string> tags;
    bool disruptive = false; // provokes VM faults, hangs or resets
    std::vector<Axis> axes;  // in file order; instance names follow it
    std::vector<Step> steps;
};

struct Suite {
    std::string name;
    std::string doc;
    std::string file;
    Location at;
    std::vector<Case> cases;
};

} // namespace harness::cases
