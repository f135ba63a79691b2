# The staging poison is what catches an early second leg:
#   amdgpu-sim --machine mixed-4 --faults FAULTS -- peer-harness run --cases CASES
# must exit 1 with every staging=poisoned instance failing (fail or
# dmesg-fail) and every staging=as_left instance passing, at least one of
# each, and no crash or timeout. One process per instance: the skipped first
# leg still runs after its hold, and in a batch child it would fault on the
# freed buffers of its own instance while the next instance's jobs queue
# behind it on the same ring (a failure of that instance, not of the poison).
# Usage: cmake -DSIM= -DHARNESS= -DFAULTS= -DCASES= -DRESULTS= -P expect_poison_needed.cmake
include(${CMAKE_CURRENT_LIST_DIR}/no_crash.cmake)
file(REMOVE_RECURSE ${RESULTS})
execute_process(COMMAND ${SIM} --machine mixed-4 --faults ${FAULTS} -- ${HARNESS} run
                        --cases ${CASES} --jobs 2 --isolation process --results ${RESULTS}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "expected exit code 1 (the poisoned copies fail), got ${rc}:\n${out}\n${err}")
endif()
file(STRINGS ${RESULTS}/results.jsonl ends REGEX "\"event\":\"end\"")
set(poisoned 0)
set(as_left 0)
foreach(line ${ends})
  fail_on_crash_or_timeout("${line}" ${RESULTS})
  if(line MATCHES "\"staging\":\"poisoned\"")
    if(NOT line MATCHES "\"status\":\"(dmesg-)?fail\"")
      message(FATAL_ERROR "a poisoned staged copy after an early hand-off did not fail: ${line}")
    endif()
    math(EXPR poisoned "${poisoned} + 1")
  elseif(line MATCHES "\"staging\":\"as_left\"")
    if(NOT line MATCHES "\"status\":\"pass\"")
      message(FATAL_ERROR "without the poison the early hand-off should pass unseen (it is "
                          "what the poison is for), but: ${line}")
    endif()
    math(EXPR as_left "${as_left} + 1")
  endif()
endforeach()
if(poisoned EQUAL 0 OR as_left EQUAL 0)
  message(FATAL_ERROR "expected instances of both staging modes, got ${poisoned} poisoned and "
                      "${as_left} as_left")
endif()
message(STATUS "${poisoned} poisoned instances failed, ${as_left} as_left instances passed")
