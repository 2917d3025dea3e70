# One run writes into an --out folder at a time, and a fresh run does not mix its files with
# another run's series there: refused, naming what it found, unless --overwrite, which removes
# that run's files first. A folder another run holds is refused naming that run's pid and host.
set(run run --scenario radial-dambreak --nx 40 --ny 30 --scheme muscl-hancock)
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
set(dir "${OUT}/series")
string(REGEX REPLACE "[][.*+?^$()|\\]" "\\\\\\0" dir_pattern "${dir}")

execute_process(COMMAND "${SWE}" ${run} --t-end 2 --output-every 0.5 --out "${dir}"
  RESULT_VARIABLE rc ERROR_VARIABLE stderr)
if(NOT rc EQUAL 0 OR NOT EXISTS "${dir}/swe_00004.vti")
  message(FATAL_ERROR "the first run failed (${rc}): ${stderr}")
endif()
file(READ "${dir}/swe.pvd" first_series)

# A second fresh run into the same folder is refused, and the first run's files stay as they were.
execute_process(COMMAND "${SWE}" ${run} --t-end 1 --manning 0.05 --out "${dir}"
  RESULT_VARIABLE rc ERROR_VARIABLE stderr)
file(READ "${dir}/swe.pvd" series)
if(rc EQUAL 0 OR NOT stderr MATCHES "error: '${dir_pattern}' holds another run's output \\(swe.pvd and 5 more\\).*--overwrite"
   OR NOT series STREQUAL first_series)
  message(FATAL_ERROR "a second run into a folder with a series (${rc}): ${stderr}")
endif()

# --overwrite removes that run's files first: only the new run's frames are left and listed.
file(WRITE "${dir}/swe_00003.vti.4242.partial" "what a killed run left")
execute_process(COMMAND "${SWE}" ${run} --t-end 1 --output-every 1 --out "${dir}" --overwrite
  RESULT_VARIABLE rc ERROR_VARIABLE stderr)
file(GLOB left RELATIVE "${dir}" "${dir}/*")
list(REMOVE_ITEM left ".swe.lock")
list(SORT left)
if(NOT rc EQUAL 0 OR NOT left STREQUAL "swe.pvd;swe_00000.vti;swe_00001.vti")
  message(FATAL_ERROR "--overwrite (${rc}) left ${left}: ${stderr}")
endif()

# A folder another run holds (its lock taken here by flock(1), with that run's record in it) is
# refused naming the run, and nothing in it changes.
file(READ "${dir}/swe.pvd" series)
file(WRITE "${dir}/.swe.lock" "pid 4242 on host elsewhere, started 2026-12-06 10:00:00 UTC\n")
execute_process(COMMAND flock "${dir}/.swe.lock" "${SWE}" ${run} --t-end 1 --out "${dir}"
  --overwrite RESULT_VARIABLE rc ERROR_VARIABLE stderr)
file(READ "${dir}/swe.pvd" after)
if(rc EQUAL 0 OR NOT stderr MATCHES "error: another swe run is writing into '${dir_pattern}' \\(pid 4242 on host elsewhere"
   OR NOT after STREQUAL series)
  message(FATAL_ERROR "a run into a folder another run holds (${rc}): ${stderr}")
endif()

# Two runs started together into one new folder: one writes, the other is refused (by the lock,
# or by the series the first has written), and the series is the writer's alone.
set(together "${OUT}/together")
execute_process(COMMAND bash -c "\"$0\" \"$@\" --manning 0.03 > /dev/null 2> ${OUT}/a.log & a=$!; \"$0\" \"$@\" --manning 0.05 > /dev/null 2> ${OUT}/b.log; b=$?; wait $a; echo $? $b"
  "${SWE}" ${run} --t-end 1 --output-every 0.5 --out "${together}"
  OUTPUT_VARIABLE codes OUTPUT_STRIP_TRAILING_WHITESPACE)
file(READ "${OUT}/a.log" a_log)
file(READ "${OUT}/b.log" b_log)
if(NOT codes MATCHES "^(0 1|1 0)$" OR NOT "${a_log}${b_log}" MATCHES "another swe run is writing|holds another run's output")
  message(FATAL_ERROR "two runs into one folder gave exit codes ${codes}:\n${a_log}\n${b_log}")
endif()
