# A run that cannot write a whole frame stops with exit code 1, naming the file and the cause. The
# series lists only the frames written before, each whole (the same bytes as a run without the
# fault) and readable (a restart from the last one runs), and no temporary file is left.
# Faults (FAULT):
# - size-limit: a file-size limit (ulimit -f) of 2 MiB, which fails a write as a full disk does,
#   one write() short. It lies between the size of the first frame (a dam break at rest
#   compresses well) and the last; below about 1 MiB PoCL's compiler cannot write its own
#   temporary files.
# - directory: a folder where frame 3's piece of rank 1 goes, which the rename cannot replace.
#   With LAUNCH (mpiexec -n 2 ...): one rank fails, every rank stops, and the series lists .pvti
#   files whose pieces are all whole. (A file-size limit would stop Open MPI's own shared memory.)
if(FAULT STREQUAL "directory")
  set(run run --scenario radial-dambreak --nx 120 --ny 100 --scheme muscl-hancock --t-end 3
    --output-every 0.5)
  set(failing "swe_00003_1\\.vti': Is a directory")
else()
  set(limit_kib 2048)
  set(run run --scenario radial-dambreak --nx 300 --ny 250 --precision double
    --scheme muscl-hancock --t-end 3 --output-every 0.5 --gauge 10,8)
  set(failing "swe_[0-9]+\\.vti': the file-size limit is reached")
endif()
file(REMOVE_RECURSE "${OUT}")
execute_process(COMMAND ${LAUNCH} "${SWE}" ${run} --out "${OUT}/free" RESULT_VARIABLE rc
  ERROR_VARIABLE stderr)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the run without the fault failed (${rc}): ${stderr}")
endif()

if(FAULT STREQUAL "directory")
  file(MAKE_DIRECTORY "${OUT}/faulty/swe_00003_1.vti/in-the-way")
  set(faulty ${LAUNCH} "${SWE}" ${run})
else()
  file(SIZE "${OUT}/free/swe_00000.vti" first)
  file(SIZE "${OUT}/free/swe_00006.vti" last)
  math(EXPR limit "${limit_kib} * 1024")
  if(NOT first LESS limit OR NOT last GREATER limit)
    message(FATAL_ERROR "the frames (${first} to ${last} bytes) do not cross the limit")
  endif()
  set(faulty bash -c "ulimit -f ${limit_kib} && exec \"$0\" \"$@\"" "${SWE}" ${run})
endif()
execute_process(COMMAND ${faulty} --out "${OUT}/faulty" RESULT_VARIABLE rc ERROR_VARIABLE stderr)
string(REGEX REPLACE "[][.*+?^$()|\\]" "\\\\\\0" dir_pattern "${OUT}/faulty")
if(NOT rc EQUAL 1 OR NOT stderr MATCHES "swe: error: [^\n]*cannot write '${dir_pattern}/${failing}")
  message(FATAL_ERROR "the run with the fault (${FAULT}) gave (${rc}): ${stderr}")
endif()
file(READ "${OUT}/faulty/swe.pvd" series)
if(NOT series MATCHES "</VTKFile>\n$")
  message(FATAL_ERROR "swe.pvd is not whole:\n${series}")
endif()
string(REGEX MATCHALL "file=\"[^\"]*\"" listed "${series}")
if(NOT listed)
  message(FATAL_ERROR "no frame listed before the fault:\n${series}")
endif()
set(last "")
foreach(entry ${listed})
  string(REGEX REPLACE "file=\"([^\"]*)\"" "\\1" name "${entry}")
  string(REGEX REPLACE "\\.pvti$" "" stem "${name}")
  file(GLOB pieces RELATIVE "${OUT}/free" "${OUT}/free/${stem}_*.vti")
  foreach(file ${name} ${pieces})
    execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${OUT}/free/${file}"
      "${OUT}/faulty/${file}" RESULT_VARIABLE differ)
    if(NOT differ EQUAL 0)
      message(FATAL_ERROR "the listed frame ${name} is not whole: ${file} differs")
    endif()
  endforeach()
  set(last "${name}")
endforeach()
file(GLOB partial "${OUT}/faulty/*.partial")
if(partial)
  message(FATAL_ERROR "temporary files were left: ${partial}")
endif()
if(LAUNCH)
  return() # (a restart runs on one rank)
endif()
execute_process(COMMAND "${SWE}" ${run} --restart "${OUT}/faulty/${last}" --out "${OUT}/faulty"
  RESULT_VARIABLE rc ERROR_VARIABLE stderr)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "a restart from the last listed frame ${last} failed (${rc}): ${stderr}")
endif()
