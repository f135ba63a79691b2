// The parts of cases/case-file.schema.json that say what harness/cases' step
// table and HIP code table say, generated from those tables: every step's
// arguments (types, word lists, required ones, shorthand and bare forms,
// descriptions), the step object and the HIP error names. The rest of the
// file (expressions, pointers, patterns, matrix, case) is written by hand.
#pragma once

#include <nlohmann/json.hpp>

namespace harness::runner::testing {

// `schema` with definitions.args, definitions.step and definitions.hip_error
// replaced by what the tables say (the step object's expect, doc and when
// entries are kept as they are in `schema`).
nlohmann::ordered_json with_step_table(nlohmann::ordered_json schema);

} // namespace harness::runner::testing
