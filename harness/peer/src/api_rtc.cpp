// hiprtc (CONTRACT.md §5.6): programs are kept with their source, name and
// name expressions, and their compilation fails, since this library has no
// device compiler; the log says so. Answers follow ROCm 5.2.3's hiprtc.
#include "hip/hiprtc.h"

#include <cstring>
#include <string>
#include <vector>

struct _hiprtcProgram {
    std::string source, name, log;
    std::vector<std::string> name_expressions;
    bool compile_tried = false;
};

namespace {

constexpr const char *kNames[] = {
    "HIPRTC_SUCCESS",
    "HIPRTC_ERROR_OUT_OF_MEMORY",
    "HIPRTC_ERROR_PROGRAM_CREATION_FAILURE",
    "HIPRTC_ERROR_INVALID_INPUT",
    "HIPRTC_ERROR_INVALID_PROGRAM",
    "HIPRTC_ERROR_INVALID_OPTION",
    "HIPRTC_ERROR_COMPILATION",
    "HIPRTC_ERROR_BUILTIN_OPERATION_FAILURE",
    "HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION",
    "HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION",
    "HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID",
    "HIPRTC_ERROR_INTERNAL_ERROR",
};

} // namespace

extern "C" {

const char *hiprtcGetErrorString(hiprtcResult result) {
    const auto i = static_cast<size_t>(result);
    return i < std::size(kNames) ? kNames[i] : "Invalid HIPRTC error code";
}

hiprtcResult hiprtcVersion(int *major, int *minor) {
    if (!major || !minor) return HIPRTC_ERROR_INVALID_INPUT;
    *major = 5;
    *minor = 2;
    return HIPRTC_SUCCESS;
}

hiprtcResult hiprtcCreateProgram(hiprtcProgram *prog, const char *src, const char *name,
                                 int numHeaders, const char **headers, const char **includeNames) {
    if (!prog || !src || numHeaders < 0) return HIPRTC_ERROR_INVALID_INPUT;
    if (numHeaders > 0 && (!headers || !includeNames)) return HIPRTC_ERROR_INVALID_INPUT;
    *prog = new _hiprtcProgram{src, name ? name : "", "", {}, false};
    return HIPRTC_SUCCESS;
}

hiprtcResult hiprtcDestroyProgram(hiprtcProgram *prog) {
    if (!prog || !*prog) return HIPRTC_ERROR_INVALID_PROGRAM;
    delete *prog;
    *prog = nullptr;
    return HIPRTC_SUCCESS;
}

hiprtcResult hiprtcAddNameExpression(hiprtcProgram prog, const char *name_expression) {
    if (!prog) return HIPRTC_ERROR_INVALID_PROGRAM;
    if (!name_expression) return HIPRTC_ERROR_INVALID_INPUT;
    if (prog->compile_tried) return HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION;
    prog->name_expressions.emplace_back(name_expression);
    return HIPRTC_SUCCESS;
}

hiprtcResult hiprtcCompileProgram(hiprtcProgram prog, int numOptions, const char **options) {
    if (!prog) return HIPRTC_ERROR_INVALID_PROGRAM;
    if (numOptions < 0 || (numOptions > 0 && !options)) return HIPRTC_ERROR_INVALID_INPUT;
    prog->compile_tried = true;
    prog->log = "program '" + prog->name +
                "' not compiled: this runtime has no device compiler "
                "(harness/peer/CONTRACT.md §5.6)\n";
    return HIPRTC_ERROR_COMPILATION;
}

// Lowered names exist only after a successful compilation, which never happens.
hiprtcResult hiprtcGetLoweredName(hiprtcProgram prog, const char *name_expression,
                                  const char **lowered_name) {
    if (!prog) return HIPRTC_ERROR_INVALID_PROGRAM;
    if (!name_expression || !lowered_name) return HIPRTC_ERROR_INVALID_INPUT;
    return HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION;
}

hiprtcResult hiprtcGetProgramLogSize(hiprtcProgram prog, size_t *logSizeRet) {
    if (!prog) return HIPRTC_ERROR_INVALID_PROGRAM;
    if (!logSizeRet) return HIPRTC_ERROR_INVALID_INPUT;
    *logSizeRet = prog->log.size() + 1;
    return HIPRTC_SUCCESS;
}

hiprtcResult hiprtcGetProgramLog(hiprtcProgram prog, char *log) {
    if (!prog) return HIPRTC_ERROR_INVALID_PROGRAM;
    if (!log) return HIPRTC_ERROR_INVALID_INPUT;
    std::memcpy(log, prog->log.c_str(), prog->log.size() + 1);
    return HIPRTC_SUCCESS;
}

// No code without a compilation: the program is not one that has code.
hiprtcResult hiprtcGetCodeSize(hiprtcProgram prog, size_t *codeSizeRet) {
    if (!prog) return HIPRTC_ERROR_INVALID_PROGRAM;
    if (!codeSizeRet) return HIPRTC_ERROR_INVALID_INPUT;
    return HIPRTC_ERROR_INVALID_PROGRAM;
}

hiprtcResult hiprtcGetCode(hiprtcProgram prog, char *code) {
    if (!prog) return HIPRTC_ERROR_INVALID_PROGRAM;
    if (!code) return HIPRTC_ERROR_INVALID_INPUT;
    return HIPRTC_ERROR_INVALID_PROGRAM;
}

} // extern "C"
