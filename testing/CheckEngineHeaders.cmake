# Run as a script: the engine as code outside it sees it (filters/, apps/, plugin/: swe_engine's
# include path, INCLUDES). Each public header (PUBLIC) compiles on its own there; no other header
# of solver/ (HIDDEN) is found there at all. CXX is the compiler, WORKDIR a folder with no headers.
string(REPLACE "|" ";" includes "${INCLUDES}")
string(REPLACE "|" ";" public "${PUBLIC}")
string(REPLACE "|" ";" hidden "${HIDDEN}")
# As swe_mpi compiles mpi.h: its C API alone.
set(flags -std=c++17 -fsyntax-only -DOMPI_SKIP_MPICXX -DMPICH_SKIP_MPICXX)
foreach(dir IN LISTS includes)
  list(APPEND flags -I${dir})
endforeach()

function(compile_alone header result error)
  execute_process(COMMAND ${CXX} ${flags} -x c++ -include ${header} /dev/null
    WORKING_DIRECTORY ${WORKDIR} RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
  set(${result} ${rc} PARENT_SCOPE)
  set(${error} "${err}" PARENT_SCOPE)
endfunction()

set(failures "")
foreach(header IN LISTS public)
  compile_alone(${header} rc err)
  if(NOT rc EQUAL 0)
    string(APPEND failures "public header ${header} does not compile outside the engine:\n${err}\n")
  endif()
endforeach()
foreach(header IN LISTS hidden)
  compile_alone(${header} rc err)
  if(rc EQUAL 0 OR NOT err MATCHES "${header}[^\n]*(No such file|not found)")
    string(APPEND failures "${header}, the engine's own, is seen outside the engine\n${err}\n")
  endif()
endforeach()
list(LENGTH public public_count)
list(LENGTH hidden hidden_count)
if(failures)
  message(FATAL_ERROR "FAIL\n${failures}")
endif()
message("PASS: ${public_count} public headers compile alone; ${hidden_count} others are not found")
