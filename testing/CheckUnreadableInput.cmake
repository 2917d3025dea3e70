# swe run --input with a truncated .vti names the file and the reader's reason (the XML parser's
# error), not what an empty image would look like afterwards ("got 0 layers").
get_filename_component(dir "${TRUNCATED}" DIRECTORY)
file(MAKE_DIRECTORY "${dir}")
file(READ "${INPUT}" head LIMIT 3000)
file(WRITE "${TRUNCATED}" "${head}")
execute_process(COMMAND "${SWE}" run --input "${TRUNCATED}" --t-end 1
  RESULT_VARIABLE rc OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
if(rc EQUAL 0)
  message(FATAL_ERROR "swe run accepted a truncated .vti:\n${stdout}${stderr}")
endif()
string(REGEX REPLACE "[][.*+?^$()|\\]" "\\\\\\0" file_pattern "${TRUNCATED}")
if(NOT stderr MATCHES "swe: error: cannot read '${file_pattern}': [^\n]*no element found")
  message(FATAL_ERROR "the error does not name the file and the parser's reason:\n${stderr}")
endif()
if(stderr MATCHES "layers")
  message(FATAL_ERROR "the error blames the image's shape, not the unreadable file:\n${stderr}")
endif()
# Nothing but the one error line: VTK's own messages are folded into it.
string(REGEX REPLACE "\n$" "" stderr "${stderr}")
if(stderr MATCHES "\n")
  message(FATAL_ERROR "more than the one error line on stderr:\n${stderr}")
endif()
