# Test registration helpers shared by every folder (included by the top
# CMakeLists.txt before any add_subdirectory).
#
#   peer_catch_main          Catch2's main, compiled once; link it instead of
#                            writing a main.cpp with CATCH_CONFIG_MAIN.
#   add_sim_test(...)        one test per simulated machine (see below).
#   check_labels.cmake       the ctest test meta.labels: fails if a test has no LABELS.

add_library(peer_catch_main STATIC ${CMAKE_CURRENT_LIST_DIR}/catch_main.cpp)
target_link_libraries(peer_catch_main PUBLIC Catch2::Catch2)

# Every machine of fixtures/machines, found at configure time (CONFIGURE_DEPENDS
# re-runs the glob on every build), split by whether it has a GPU. A machine
# added there is picked up by every test registered with ALL or GPU/NO_GPU.
set(PEER_MACHINES_DIR ${PROJECT_SOURCE_DIR}/fixtures/machines)
file(GLOB _peer_machine_files CONFIGURE_DEPENDS ${PEER_MACHINES_DIR}/*.yaml)
set(PEER_ALL_MACHINES "")
set(PEER_GPU_MACHINES "")
set(PEER_NO_GPU_MACHINES "")
foreach(_f ${_peer_machine_files})
  get_filename_component(_m ${_f} NAME_WE)
  list(APPEND PEER_ALL_MACHINES ${_m})
  # A machine without GPUs says so with `gpus: []` (fixtures/machines/README.md);
  # every other machine lists its GPUs below `gpus:`.
  file(STRINGS ${_f} _empty REGEX "^gpus:[ \t]*\\[[ \t]*\\]")
  if(_empty)
    list(APPEND PEER_NO_GPU_MACHINES ${_m})
  else()
    list(APPEND PEER_GPU_MACHINES ${_m})
  endif()
endforeach()
# What each GPU machine is (access matrix, GPUs), written by hand from the
# machine files: _spec_<machine>, _gpus_<machine>.
include(${CMAKE_CURRENT_LIST_DIR}/machine_expectations.cmake)
list(LENGTH PEER_GPU_MACHINES _n)
if(_n EQUAL 0)
  message(FATAL_ERROR "no GPU machine found in ${PEER_MACHINES_DIR}")
endif()

# add_sim_test(NAME base
#              MACHINES ALL | GPU | NO_GPU | name-or-path...
#              LABELS label...
#              COMMAND cmd args...
#              [FAULTS scenario.yaml] [NO_LAUNCHER]
#              [ENVIRONMENT VAR=value...] [MACHINE_ENV prefix] [TIMEOUT seconds])
#
# Registers base.<machine> for every machine: the command runs under
# `amdgpu-sim --machine FILE [--faults F] --` unless NO_LAUNCHER is given. In
# COMMAND, <MACHINE> is replaced by the machine's name and <MACHINE_FILE> by
# its path. Every test gets the labels "sim" plus LABELS. MACHINE_ENV p takes
# extra environment for machine m from the variable p_<m> (a ;-list) and stops
# the configure if a machine has none, so a new machine is never silently
# tested without its expectations. An unknown machine name stops the configure.
function(add_sim_test)
  cmake_parse_arguments(PARSE_ARGV 0 A "NO_LAUNCHER" "NAME;FAULTS;MACHINE_ENV;TIMEOUT"
                        "MACHINES;LABELS;COMMAND;ENVIRONMENT")
  if(A_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "add_sim_test(${A_NAME}): unexpected arguments ${A_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT A_NAME OR NOT A_MACHINES OR NOT A_LABELS OR NOT A_COMMAND)
    message(FATAL_ERROR "add_sim_test: NAME, MACHINES, LABELS and COMMAND are required")
  endif()
  set(machines "")
  foreach(m ${A_MACHINES})
    if(m STREQUAL "ALL")
      list(APPEND machines ${PEER_ALL_MACHINES})
    elseif(m STREQUAL "GPU")
      list(APPEND machines ${PEER_GPU_MACHINES})
    elseif(m STREQUAL "NO_GPU")
      list(APPEND machines ${PEER_NO_GPU_MACHINES})
    else()
      list(APPEND machines ${m})
    endif()
  endforeach()
  list(REMOVE_DUPLICATES machines)
  foreach(m ${machines})
    if(IS_ABSOLUTE ${m})
      set(file ${m})
      get_filename_component(name ${m} NAME_WLE)
    else()
      set(file ${PEER_MACHINES_DIR}/${m}.yaml)
      set(name ${m})
    endif()
    if(NOT EXISTS ${file})
      message(FATAL_ERROR "add_sim_test(${A_NAME}): no machine file ${file}")
    endif()
    set(cmd "")
    foreach(arg ${A_COMMAND})
      string(REPLACE "<MACHINE_FILE>" "${file}" arg "${arg}")
      string(REPLACE "<MACHINE>" "${name}" arg "${arg}")
      list(APPEND cmd "${arg}")
    endforeach()
    if(NOT A_NO_LAUNCHER)
      set(launcher $<TARGET_FILE:amdgpu-sim> --machine ${file})
      if(A_FAULTS)
        list(APPEND launcher --faults ${A_FAULTS})
      endif()
      set(cmd ${launcher} -- ${cmd})
    endif()
    add_test(NAME ${A_NAME}.${name} COMMAND ${cmd})
    set(env ${A_ENVIRONMENT})
    if(A_MACHINE_ENV)
      if(NOT DEFINED ${A_MACHINE_ENV}_${name})
        message(FATAL_ERROR "add_sim_test(${A_NAME}): machine ${name} has no expectations "
                            "(set ${A_MACHINE_ENV}_${name} where ${A_NAME} is registered)")
      endif()
      list(APPEND env ${${A_MACHINE_ENV}_${name}})
    endif()
    set_tests_properties(${A_NAME}.${name} PROPERTIES LABELS "sim;${A_LABELS}")
    if(env)
      set_tests_properties(${A_NAME}.${name} PROPERTIES ENVIRONMENT "${env}")
    endif()
    if(A_TIMEOUT)
      set_tests_properties(${A_NAME}.${name} PROPERTIES TIMEOUT ${A_TIMEOUT})
    endif()
  endforeach()
endfunction()

# peer_scale_timeouts(): called last in every folder that adds tests. A
# test's TIMEOUT is there to end a hang, not to measure speed, and the
# sanitizer presets (Debug, instrumented) run the same test several times
# slower: on a slow CI host lab.sim and runner.isolation-equal took longer
# than their 600 s under ASan. Sanitizer builds multiply every TIMEOUT by 3.
if(PEER_SANITIZE OR PEER_TSAN)
  set(PEER_TIMEOUT_SCALE 3)
else()
  set(PEER_TIMEOUT_SCALE 1)
endif()
function(peer_scale_timeouts)
  if(PEER_TIMEOUT_SCALE EQUAL 1)
    return()
  endif()
  get_directory_property(_tests TESTS)
  foreach(_t IN LISTS _tests)
    get_test_property(${_t} TIMEOUT _secs)
    if(_secs)
      math(EXPR _secs "${_secs} * ${PEER_TIMEOUT_SCALE}")
      set_tests_properties(${_t} PROPERTIES TIMEOUT ${_secs})
    endif()
  endforeach()
endfunction()
