// libFuzzer target: the case-file loader (cases::load_string, what
// `peer-harness check` and `run` use). A bad case file must come back as
// errors with file:line:col, never a crash.
#include <cstddef>
#include <cstdint>
#include <string>

#include "cases/loader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    std::string text(reinterpret_cast<const char *>(data), size);
    auto r = harness::cases::load_string(text, "fuzz.yaml");
    (void)r;
    return 0;
}
