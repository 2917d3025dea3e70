# swe run --restart continues from a frame bit for bit: a run to t = 6 with outputs every 2 s, and
# a run to 4 restarted from its last frame to 6, write the same file at t = 6 (state, flood maps
# and field data) and the same gauges.csv from t = 0 (the frame carries the samples so far). A
# frame of the other precision, or at or past --t-end, is refused by name.
set(model run --scenario radial-dambreak --nx 60 --ny 45 --scheme muscl-hancock --maps
  --arrival-depth 0.5 --gauge 10,8 --gauge 20.3,11)
set(run ${model} --output-every 2)
file(REMOVE_RECURSE "${OUT}")
foreach(case "whole;6" "first;4")
  list(GET case 0 name)
  list(GET case 1 end)
  execute_process(COMMAND "${SWE}" ${run} --t-end ${end} --out "${OUT}/${name}"
    RESULT_VARIABLE rc ERROR_VARIABLE stderr)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "swe run to ${end} failed (${rc}): ${stderr}")
  endif()
endforeach()
execute_process(COMMAND "${SWE}" ${run} --t-end 6 --restart "${OUT}/first/swe_00002.vti"
  --out "${OUT}/restarted" RESULT_VARIABLE rc ERROR_VARIABLE stderr)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "swe run --restart failed (${rc}): ${stderr}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${OUT}/whole/swe_00003.vti"
  "${OUT}/restarted/swe_00003.vti" RESULT_VARIABLE differ)
if(NOT differ EQUAL 0)
  message(FATAL_ERROR "the restarted run's frame at t = 6 differs from the whole run's")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${OUT}/whole/gauges.csv"
  "${OUT}/restarted/gauges.csv" RESULT_VARIABLE differ)
if(NOT differ EQUAL 0)
  message(FATAL_ERROR "the restarted run's gauges.csv differs from the whole run's")
endif()
# Restarted into the directory of the run it continues, its files go on from the frame's number
# (they were numbered from 0, over the earlier frames) and the series keeps the earlier ones.
execute_process(COMMAND "${SWE}" ${run} --t-end 6 --restart "${OUT}/first/swe_00002.vti"
  --out "${OUT}/first" RESULT_VARIABLE rc ERROR_VARIABLE stderr)
file(READ "${OUT}/first/swe.pvd" series)
string(REGEX MATCHALL "file=\"[^\"]*\"" listed "${series}")
execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${OUT}/whole/swe_00003.vti"
  "${OUT}/first/swe_00003.vti" RESULT_VARIABLE differ)
execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${OUT}/whole/swe_00001.vti"
  "${OUT}/first/swe_00001.vti" RESULT_VARIABLE earlier_differ)
if(NOT rc EQUAL 0 OR NOT differ EQUAL 0 OR NOT earlier_differ EQUAL 0
   OR NOT listed STREQUAL "file=\"swe_00000.vti\";file=\"swe_00001.vti\";file=\"swe_00002.vti\";file=\"swe_00003.vti\"")
  message(FATAL_ERROR "a run restarted into its own directory: (${rc}) ${stderr}; frames at "
    "t = 6 and 2 the whole run's: ${differ} ${earlier_differ}; series ${listed}")
endif()
# Restarted there again with other output times (every 3 s, to 9), the earlier frames stay and
# the new ones follow the frame's: 0, 2 and 4 s as they were, then 6 and 9 s.
execute_process(COMMAND "${SWE}" ${model} --output-every 3 --t-end 9
  --restart "${OUT}/first/swe_00002.vti" --out "${OUT}/first" RESULT_VARIABLE rc
  ERROR_VARIABLE stderr)
file(READ "${OUT}/first/swe.pvd" series)
string(REGEX MATCHALL "timestep=\"[^\"]*\" part=\"0\" file=\"[^\"]*\"" listed "${series}")
string(REPLACE "part=\"0\" " "" listed "${listed}")
execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${OUT}/whole/swe_00001.vti"
  "${OUT}/first/swe_00001.vti" RESULT_VARIABLE earlier_differ)
if(NOT rc EQUAL 0 OR NOT earlier_differ EQUAL 0 OR NOT listed STREQUAL
   "timestep=\"0\" file=\"swe_00000.vti\";timestep=\"2\" file=\"swe_00001.vti\";timestep=\"4\" file=\"swe_00002.vti\";timestep=\"6\" file=\"swe_00003.vti\";timestep=\"9\" file=\"swe_00004.vti\"")
  message(FATAL_ERROR "restarted into its own directory with other output times: (${rc}) "
    "${stderr}; the frame at t = 2 the whole run's: ${earlier_differ}; series ${listed}")
endif()
function(expect_refused expected)
  execute_process(COMMAND "${SWE}" ${run} ${ARGN} --restart "${OUT}/first/swe_00002.vti"
    RESULT_VARIABLE rc ERROR_VARIABLE stderr)
  if(rc EQUAL 0 OR NOT stderr MATCHES "${expected}")
    message(FATAL_ERROR "${ARGN} with --restart: expected an error '${expected}', got (${rc}) "
      "${stderr}")
  endif()
endfunction()
expect_refused("in float, the run is in double precision" --t-end 6 --precision double)
expect_refused("has cells of 0.5 m, this run has 1 m: restart on the grid" --t-end 6 --dx 1)
# Other settings are a hot start: it goes on, and says which differ.
execute_process(COMMAND "${SWE}" ${run} --t-end 6 --manning 0.02 --rain 10
  --restart "${OUT}/first/swe_00002.vti" RESULT_VARIABLE rc ERROR_VARIABLE stderr)
if(NOT rc EQUAL 0 OR NOT stderr MATCHES
   "warning: '[^']*swe_00002.vti' was written by a run with other settings: Manning 0 \\(this run: 0.02\\); rain 0 \\(this run: 10\\)\\. This run goes on")
  message(FATAL_ERROR "a hot start with other Manning and rain: (${rc}) ${stderr}")
endif()
expect_refused("not before --t-end 4 s" --t-end 4)
expect_refused("not the water balance kept from t = 0" --t-end 6 --balance)
