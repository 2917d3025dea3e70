# A run that cannot write a whole frame stops with exit code 1, naming the file and the cause,
# here the file-size limit (ulimit -f; it fails as a full disk does, one write() short). The
# series lists only the frames written before, each whole (the same bytes as a run without the
# limit) and readable (a restart from the last one runs), and no temporary file is left.
# The limit, 2 MiB, lies between the size of the first frame (a dam break at rest compresses
# well) and the last, measured from a run without it; below about 1 MiB PoCL's compiler cannot
# write its own temporary files.
# With LAUNCH (mpiexec -n 2 ...), the run is split: every rank stops, the series lists .pvti files
# whose pieces are all whole, on a grid whose pieces cross the limit (NX, NY).
set(limit_kib 2048)
if(NOT DEFINED NX)
  set(NX 300)
  set(NY 250)
endif()
set(run run --scenario radial-dambreak --nx ${NX} --ny ${NY} --precision double
  --scheme muscl-hancock --t-end 3 --output-every 0.5 --gauge 10,8)
file(REMOVE_RECURSE "${OUT}")
execute_process(COMMAND ${LAUNCH} "${SWE}" ${run} --out "${OUT}/free" RESULT_VARIABLE rc
  ERROR_VARIABLE stderr)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the run without a limit failed (${rc}): ${stderr}")
endif()
file(GLOB first_pieces "${OUT}/free/swe_00000*.vti")
list(GET first_pieces 0 first_piece)
file(SIZE "${first_piece}" first)
set(largest 0)
file(GLOB frames "${OUT}/free/swe_*.vti")
foreach(frame ${frames})
  file(SIZE "${frame}" size)
  if(size GREATER largest)
    set(largest ${size})
  endif()
endforeach()
math(EXPR limit "${limit_kib} * 1024")
if(NOT first LESS limit OR NOT largest GREATER limit)
  message(FATAL_ERROR "the frames (${first} to ${largest} bytes) do not cross the limit")
endif()

execute_process(COMMAND bash -c "ulimit -f ${limit_kib} && exec \"$0\" \"$@\"" ${LAUNCH} "${SWE}"
  ${run} --out "${OUT}/limited" RESULT_VARIABLE rc ERROR_VARIABLE stderr)
string(REGEX REPLACE "[][.*+?^$()|\\]" "\\\\\\0" dir_pattern "${OUT}/limited")
if(NOT rc EQUAL 1 OR NOT stderr MATCHES "swe: error: cannot write '${dir_pattern}/swe_[0-9_]+\\.vti': the file-size limit is reached")
  message(FATAL_ERROR "under a file-size limit of ${limit_kib} KiB the run gave (${rc}): ${stderr}")
endif()
file(READ "${OUT}/limited/swe.pvd" series)
if(NOT series MATCHES "</VTKFile>\n$")
  message(FATAL_ERROR "swe.pvd is not whole:\n${series}")
endif()
string(REGEX MATCHALL "file=\"[^\"]*\"" listed "${series}")
list(LENGTH listed count)
if(count EQUAL 0)
  message(FATAL_ERROR "no frame listed before the limit:\n${series}")
endif()
set(last "")
foreach(entry ${listed})
  string(REGEX REPLACE "file=\"([^\"]*)\"" "\\1" name "${entry}")
  string(REGEX REPLACE "\\.pvti$" "" stem "${name}")
  file(GLOB pieces RELATIVE "${OUT}/free" "${OUT}/free/${stem}_*.vti")
  foreach(file ${name} ${pieces})
    execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${OUT}/free/${file}"
      "${OUT}/limited/${file}" RESULT_VARIABLE differ)
    if(NOT differ EQUAL 0)
      message(FATAL_ERROR "the listed frame ${name} is not whole: ${file} differs")
    endif()
  endforeach()
  set(last "${name}")
endforeach()
file(GLOB partial "${OUT}/limited/*.partial")
if(partial)
  message(FATAL_ERROR "temporary files were left: ${partial}")
endif()
if(LAUNCH)
  return() # (a restart runs on one rank)
endif()
execute_process(COMMAND "${SWE}" ${run} --restart "${OUT}/limited/${last}" --out "${OUT}/limited"
  RESULT_VARIABLE rc ERROR_VARIABLE stderr)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "a restart from the last listed frame ${last} failed (${rc}): ${stderr}")
endif()
