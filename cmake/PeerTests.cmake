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
#              MACHINES ALL | GPU | NO_GPU | DEFAULT | name-or-path...
#              LABELS label...
#              COMMAND cmd args...
#              [FAULTS scenario.yaml] [NO_LAUNCHER | PRELOAD]
#              [EXPECT_EXIT code|nonzero pattern]
#              [ENVIRONMENT VAR=value...] [MACHINE_ENV prefix] [TIMEOUT seconds])
#
# Registers base.<machine> for every machine: the command runs under
# `amdgpu-sim --machine FILE [--faults F] --` unless NO_LAUNCHER is given
# (the command starts the launcher itself) or PRELOAD (the preload is put in
# LD_PRELOAD with AMDGPU_SIM_MACHINE=FILE, as a process that skipped the
# launcher would have it). DEFAULT is the launcher's own default machine (no
# --machine; named base.default). In COMMAND, <MACHINE> is replaced by the
# machine's name and <MACHINE_FILE> by its path. EXPECT_EXIT: the test passes
# when the whole command (launcher included) exits with that status
# (`nonzero`: any failure) and prints a line matching the grep pattern
# (cmake/expect_exit.sh): an expected failure, never a bare inverted status.
# Every test gets the labels "sim" plus LABELS. MACHINE_ENV p takes extra
# environment for machine m from the variable p_<m> (a ;-list) and stops the
# configure if a machine has none, so a new machine is never silently tested
# without its expectations. An unknown machine name stops the configure.
# Every name registered here is recorded (PEER_SIM_TESTS): meta.labels fails
# when a test that runs the launcher or the preload was registered otherwise.
set(PEER_EXPECT_EXIT ${CMAKE_CURRENT_LIST_DIR}/expect_exit.sh)
set_property(GLOBAL PROPERTY PEER_SIM_TESTS "")

# The machine list of add_sim_test's MACHINES, expanded.
function(_peer_sim_machines out)
  set(machines "")
  foreach(m ${ARGN})
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
  set(${out} ${machines} PARENT_SCOPE)
endfunction()

function(add_sim_test)
  cmake_parse_arguments(PARSE_ARGV 0 A "NO_LAUNCHER;PRELOAD" "NAME;FAULTS;MACHINE_ENV;TIMEOUT"
                        "MACHINES;LABELS;COMMAND;ENVIRONMENT;EXPECT_EXIT")
  if(A_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "add_sim_test(${A_NAME}): unexpected arguments ${A_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT A_NAME OR NOT A_MACHINES OR NOT A_LABELS OR NOT A_COMMAND)
    message(FATAL_ERROR "add_sim_test: NAME, MACHINES, LABELS and COMMAND are required")
  endif()
  if(A_EXPECT_EXIT)
    list(LENGTH A_EXPECT_EXIT n)
    if(NOT n EQUAL 2)
      message(FATAL_ERROR "add_sim_test(${A_NAME}): EXPECT_EXIT takes a status and a pattern")
    endif()
  endif()
  if(A_NO_LAUNCHER AND A_PRELOAD)
    message(FATAL_ERROR "add_sim_test(${A_NAME}): NO_LAUNCHER or PRELOAD, not both")
  endif()
  _peer_sim_machines(machines ${A_MACHINES})
  foreach(m ${machines})
    if(m STREQUAL "DEFAULT")
      set(file "")
      set(name default)
    elseif(IS_ABSOLUTE ${m})
      set(file ${m})
      get_filename_component(name ${m} NAME_WLE)
    else()
      set(file ${PEER_MACHINES_DIR}/${m}.yaml)
      set(name ${m})
    endif()
    if(file AND NOT EXISTS ${file})
      message(FATAL_ERROR "add_sim_test(${A_NAME}): no machine file ${file}")
    endif()
    set(cmd "")
    foreach(arg ${A_COMMAND})
      string(REPLACE "<MACHINE_FILE>" "${file}" arg "${arg}")
      string(REPLACE "<MACHINE>" "${name}" arg "${arg}")
      list(APPEND cmd "${arg}")
    endforeach()
    set(env "")
    if(A_PRELOAD)
      # The test's own ENVIRONMENT comes after and may widen ASAN_OPTIONS.
      set(env "LD_PRELOAD=$<TARGET_FILE:amdgpu_sim_preload>" "AMDGPU_SIM_MACHINE=${file}"
              "ASAN_OPTIONS=verify_asan_link_order=0")
    elseif(NOT A_NO_LAUNCHER)
      set(launcher $<TARGET_FILE:amdgpu-sim>)
      if(file)
        list(APPEND launcher --machine ${file})
      endif()
      if(A_FAULTS)
        list(APPEND launcher --faults ${A_FAULTS})
      endif()
      set(cmd ${launcher} -- ${cmd})
    endif()
    if(A_EXPECT_EXIT)
      set(cmd ${PEER_EXPECT_EXIT} ${A_EXPECT_EXIT} -- ${cmd})
    endif()
    list(APPEND env ${A_ENVIRONMENT})
    add_test(NAME ${A_NAME}.${name} COMMAND ${cmd})
    set_property(GLOBAL APPEND PROPERTY PEER_SIM_TESTS ${A_NAME}.${name})
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

# peer_check_test_list(FILE): called once, after every folder. The tests this
# configure registered must be exactly those FILE lists (one name a line; a
# line `[VAR] name` counts only when VAR is true, for the tests of optional
# presets; # starts a comment). A test that goes missing (a glob that finds
# nothing, a folder or preset that registers less) and a test nobody listed
# both stop the configure, naming them; the registered list is written to
# the build tree (tests-registered.txt) to update FILE from. Also writes the
# names add_sim_test registered (sim-tests.txt) for meta.labels.
function(_peer_collect_tests dir out)
  get_property(tests DIRECTORY ${dir} PROPERTY TESTS)
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(sub ${subdirs})
    _peer_collect_tests(${sub} more)
    list(APPEND tests ${more})
  endforeach()
  set(${out} ${tests} PARENT_SCOPE)
endfunction()

function(peer_check_test_list list_file)
  _peer_collect_tests(${PROJECT_SOURCE_DIR} registered)
  list(SORT registered)
  list(JOIN registered "\n" text)
  file(WRITE ${PROJECT_BINARY_DIR}/tests-registered.txt "${text}\n")
  get_property(sim GLOBAL PROPERTY PEER_SIM_TESTS)
  list(JOIN sim "\n" text)
  file(WRITE ${PROJECT_BINARY_DIR}/sim-tests.txt "${text}\n")
  file(STRINGS ${list_file} lines)
  set(expected "")
  foreach(line ${lines})
    if(line MATCHES "^[ \t]*(#|$)")
      continue()
    elseif(line MATCHES "^\\[([A-Za-z0-9_]+)\\][ \t]+([^ \t]+)$")
      if(${CMAKE_MATCH_1})
        list(APPEND expected ${CMAKE_MATCH_2})
      endif()
    else()
      list(APPEND expected ${line})
    endif()
  endforeach()
  set(missing ${expected})
  list(REMOVE_ITEM missing ${registered})
  set(unlisted ${registered})
  list(REMOVE_ITEM unlisted ${expected})
  list(LENGTH registered n_registered)
  list(LENGTH expected n_expected)
  if(missing)
    list(LENGTH missing n)
    list(JOIN missing "\n  " names)
    message(FATAL_ERROR "${n_registered} tests registered, ${list_file} expects ${n_expected}; "
                        "${n} listed there are not registered:\n  ${names}")
  endif()
  if(unlisted)
    list(LENGTH unlisted n)
    list(JOIN unlisted "\n  " names)
    message(FATAL_ERROR "${n} tests are registered but not listed in ${list_file} (add them; "
                        "the whole list is in ${PROJECT_BINARY_DIR}/tests-registered.txt):\n  "
                        "${names}")
  endif()
  message(STATUS "${n_registered} tests registered, as ${list_file} lists")
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
