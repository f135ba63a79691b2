cmake_minimum_required(VERSION 3.25)
# ctest test meta.tsan_selection: the TSan preset keeps checking the
# simulator's and the peer API's concurrent paths. The tsan test preset runs
# the tests labelled `tsan` and nothing else, its build preset builds the
# target tsan_targets, ci/test runs both presets as they are (no -R/-E/-L of
# its own), the label selects every machine's test of each family below, and
# no test that loads ROCm's HIP/ROCr (label rocm) is in it.
# Usage: cmake -DCTEST=ctest -DBUILD_DIR=dir -DPRESETS=CMakePresets.json
#              -DCI_TEST=ci/test -P check_tsan_selection.cmake

# The families that must run under TSan, each with every test the build
# registers for it: SDMA engines on their own threads and on the waiting
# thread, the KFD unit tests (AQL queue processor, events, eviction, in
# process), and the peer API's own threads.
# Not in it: clients that reach a KFD user queue through the interposer
# (kfd.shared_vm, peer.events_kfd, peer.kfd_eviction) hang under TSan. The
# client writes the ring through its CPU mapping and rings the doorbell
# through its own mapping of the doorbell slice; the engine reads the
# doorbell through the model's mapping of the same pages, so TSan sees no
# happens-before between the client's ring writes and the engine's reads and
# reports a race. Its symbolizer then calls munmap, which the interposer hands
# to the model (drm/amdgpu_object.cpp cpu_munmap), whose lock the reporting
# engine thread already holds: the report deadlocks. Both halves need work
# before these can join: engine accesses that TSan does not instrument (the
# engine is another agent, like hardware DMA) and an interposed munmap that
# does not take the model lock on a thread that holds it.
set(families
  "^kfd\\.unit$"
  "^amdgpu_sim\\.async\\.threaded\\."
  "^amdgpu_sim\\.async\\.deterministic\\."
  "^amdgpu_sim\\.sdma_packets\\."
  "^peer\\.threads\\.")

set(problems "")

# The presets: a label filter alone, and the build of tsan_targets.
file(READ ${PRESETS} presets)
function(preset_index kind name out)
  string(JSON n LENGTH "${presets}" ${kind})
  math(EXPR last "${n} - 1")
  foreach(i RANGE ${last})
    string(JSON pn GET "${presets}" ${kind} ${i} name)
    if(pn STREQUAL name)
      set(${out} ${i} PARENT_SCOPE)
      return()
    endif()
  endforeach()
  set(${out} "" PARENT_SCOPE)
endfunction()
preset_index(testPresets tsan ti)
if(ti STREQUAL "")
  list(APPEND problems "${PRESETS}: no test preset `tsan`")
else()
  string(JSON filter ERROR_VARIABLE no_filter GET "${presets}" testPresets ${ti} filter)
  string(JSON label ERROR_VARIABLE ignored GET "${presets}" testPresets ${ti} filter include label)
  string(JSON nkeys ERROR_VARIABLE ignored LENGTH "${presets}" testPresets ${ti} filter)
  string(JSON nincl ERROR_VARIABLE ignored LENGTH "${presets}" testPresets ${ti} filter include)
  if(no_filter)
    set(filter "none")
  endif()
  if(NOT label STREQUAL "^tsan$" OR NOT nkeys EQUAL 1 OR NOT nincl EQUAL 1)
    list(APPEND problems "${PRESETS}: test preset `tsan` must filter on exactly {\"include\": {\"label\": \"^tsan$\"}}, has ${filter}")
  endif()
endif()
preset_index(buildPresets tsan bi)
if(bi STREQUAL "")
  list(APPEND problems "${PRESETS}: no build preset `tsan`")
else()
  string(JSON targets ERROR_VARIABLE no_targets GET "${presets}" buildPresets ${bi} targets)
  if(no_targets)
    set(targets "every target")
  endif()
  if(NOT targets MATCHES "^\\[ *\"tsan_targets\" *\\]$")
    list(APPEND problems "${PRESETS}: build preset `tsan` must build [\"tsan_targets\"], has ${targets}")
  endif()
endif()

# ci/test: the tsan preset's build and test commands carry no selection.
file(STRINGS ${CI_TEST} ci_lines)
set(ci_ctest FALSE)
foreach(line IN LISTS ci_lines)
  if(line MATCHES "^[ \t]*#")
    continue()
  endif()
  if(line MATCHES "ctest .*--preset[ =]\"?(tsan|\\$\\{preset\\})")
    set(ci_ctest TRUE)
    if(line MATCHES " -(R|E|L|LE|I|U)( |$)|--(tests-regex|exclude-regex|label-regex|label-exclude|tests-information)")
      list(APPEND problems "${CI_TEST}: `${line}` narrows the tsan preset's selection")
    endif()
  endif()
  if(line MATCHES "cmake --build .*--preset[ =]\"?(tsan|\\$\\{preset\\})" AND line MATCHES "--target")
    list(APPEND problems "${CI_TEST}: `${line}` builds other targets than the preset's")
  endif()
endforeach()
if(NOT ci_ctest)
  list(APPEND problems "${CI_TEST}: no `ctest --preset tsan` (or `--preset \${preset}`) line")
endif()

# The label: every test of each family, and no rocm test.
function(list_tests out)
  execute_process(COMMAND ${CTEST} --test-dir ${BUILD_DIR} -N ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE text ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "ctest -N ${ARGN} failed (${rc}): ${err}")
  endif()
  string(REGEX MATCHALL "Test +#[0-9]+: [^\n]+" lines "${text}")
  set(names "")
  foreach(l IN LISTS lines)
    string(REGEX REPLACE "Test +#[0-9]+: " "" n "${l}")
    string(STRIP "${n}" n)
    list(APPEND names "${n}")
  endforeach()
  set(${out} "${names}" PARENT_SCOPE)
endfunction()
list_tests(all)
list_tests(selected -L "^tsan$")
list_tests(rocm -L "^rocm$")
list(LENGTH selected n_selected)
if(n_selected EQUAL 0)
  list(APPEND problems "no test is labelled tsan: the TSan preset would run nothing")
endif()
foreach(family IN LISTS families)
  set(in_family "")
  foreach(t IN LISTS all)
    if(t MATCHES "${family}")
      list(APPEND in_family "${t}")
    endif()
  endforeach()
  if(NOT in_family)
    list(APPEND problems "no registered test matches ${family}")
  endif()
  foreach(t IN LISTS in_family)
    if(NOT t IN_LIST selected)
      list(APPEND problems "${t} (${family}) is not labelled tsan")
    endif()
  endforeach()
endforeach()
foreach(t IN LISTS selected)
  if(t IN_LIST rocm)
    list(APPEND problems "${t} is labelled both tsan and rocm (ROCm's HIP is not run under TSan)")
  endif()
endforeach()

# (a count, not if(problems): a message that ends in -NOTFOUND is false)
list(LENGTH problems n_problems)
if(n_problems GREATER 0)
  list(JOIN problems "\n  " text)
  message(FATAL_ERROR "the TSan selection shrank or drifted:\n  ${text}")
endif()
message(STATUS "${n_selected} tests labelled tsan, every family present")
