# Two ways of giving swe run the same input make the same state, bit for bit (swe run --digest's
# h, hu and hv), and a third that differs from them makes another: the options compared are read,
# not ignored.
# -DSWE=swe -DSAME_A=args -DSAME_B=args -DOTHER=args (CMake lists: ';' between arguments)
function(digest_of out)
  execute_process(COMMAND "${SWE}" ${ARGN} --digest RESULT_VARIABLE rc OUTPUT_VARIABLE stdout
    ERROR_VARIABLE stderr)
  string(REGEX MATCH "DIGEST [^\n]*" digest "${stdout}")
  if(NOT rc EQUAL 0 OR digest STREQUAL "")
    message(FATAL_ERROR "FAIL: swe ${ARGN} (${rc}): ${stderr}")
  endif()
  set(${out} "${digest}" PARENT_SCOPE)
endfunction()
digest_of(a ${SAME_A})
digest_of(b ${SAME_B})
digest_of(other ${OTHER})
if(NOT a STREQUAL b)
  message(FATAL_ERROR "FAIL: ${SAME_A} gives ${a}, ${SAME_B} gives ${b}")
endif()
if(a STREQUAL other)
  message(FATAL_ERROR "FAIL: ${OTHER} gives the same ${a}")
endif()
message("PASS: ${a}")
