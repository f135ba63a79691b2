# A fault scenario must be caught by the cases that target it:
#   amdgpu-sim --machine MACHINE --faults FAULTS -- peer-harness run --cases CASES
# must exit 1, with at least one failing (fail or dmesg-fail) instance of every family in FAMILIES
# (suite/case prefixes, ;-separated) and no crash or timeout anywhere.
# Usage: cmake -DSIM= -DHARNESS= -DMACHINE= -DFAULTS= -DCASES= -DFAMILIES= -DRESULTS=
#              [-DEXPECT=manifest.yaml] -P expect_detected.cmake
# EXPECT: the machine manifest the expectations come from (cases whose
# selectors only a manifest can answer need it).
include(${CMAKE_CURRENT_LIST_DIR}/no_crash.cmake)
file(REMOVE_RECURSE ${RESULTS})
set(expect_args)
if(EXPECT)
  set(expect_args --expect ${EXPECT})
endif()
execute_process(COMMAND ${SIM} --machine ${MACHINE} --faults ${FAULTS} -- ${HARNESS} run
                        --cases ${CASES} --jobs 2 --results ${RESULTS} ${expect_args}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "expected exit code 1 (failures found), got ${rc}:\n${out}\n${err}")
endif()
file(STRINGS ${RESULTS}/results.jsonl ends REGEX "\"event\":\"end\"")
set(failed 0)
foreach(line ${ends})
  fail_on_crash_or_timeout("${line}" ${RESULTS})
endforeach()
foreach(family ${FAMILIES})
  set(n 0)
  foreach(line ${ends})
    if(line MATCHES "\"name\":\"${family}/" AND line MATCHES "\"status\":\"(dmesg-)?fail\"")
      math(EXPR n "${n} + 1")
    endif()
  endforeach()
  if(n EQUAL 0)
    message(FATAL_ERROR "no failing instance of ${family} under ${FAULTS}:\n${err}")
  endif()
  message(STATUS "${family}: ${n} failing instance(s) under ${FAULTS}")
endforeach()
