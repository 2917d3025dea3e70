# swe ensemble under mpirun: the members spread over the ranks give the files of one rank, byte
# for byte (the statistics' series and members.csv).
set(args ensemble --scenario ritter --nx 40 --ny 4 --dx 0.25 --precision double
  --arrival-depth 0.001 --t-end 2 --output-every 1 --members 5 --vary manning=0.01:0.05
  --device auto)
file(REMOVE_RECURSE "${OUT}")
execute_process(COMMAND "${SWE}" ${args} --out "${OUT}/one"
  RESULT_VARIABLE rc OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "one rank failed (${rc}): ${stderr}")
endif()
execute_process(COMMAND ${LAUNCH} "${SWE}" ${args} --out "${OUT}/ranks"
  RESULT_VARIABLE rc OUTPUT_VARIABLE ranks_stdout ERROR_VARIABLE stderr)
if(NOT rc EQUAL 0 OR NOT ranks_stdout MATCHES "RESULT members=5 running=5 t=2 ")
  message(FATAL_ERROR "under mpirun (${rc}): ${ranks_stdout}${stderr}")
endif()
foreach(file ensemble.pvd ensemble_00000.vti ensemble_00002.vti members.csv)
  file(SHA256 "${OUT}/one/${file}" one)
  file(SHA256 "${OUT}/ranks/${file}" ranks)
  if(NOT one STREQUAL ranks)
    message(FATAL_ERROR "${file} differs between one rank and several")
  endif()
endforeach()
