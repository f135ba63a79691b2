# include()d by the detection scripts: a crash or timeout in the journal is
# never a detection. Stops with the journal line and the instance's log, which
# holds the stack of a crash (harness/runner/src/crash_trace.cpp).
function(fail_on_crash_or_timeout line results)
  if(line MATCHES "\"status\":\"(crash|timeout)\"")
    set(log "")
    if(line MATCHES "\"log\":\"([^\"]*)\"")
      file(READ ${results}/${CMAKE_MATCH_1} log)
    endif()
    message(FATAL_ERROR "a crash or timeout is not a detection: ${line}\n${log}")
  endif()
endfunction()
