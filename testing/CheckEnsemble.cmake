# swe ensemble --out: the statistics at every output time as a .vti series, members.csv with a
# row a member, GeoTIFF maps; the same seed draws the same members; a second ensemble into the
# same folder is refused (and --overwrite clears it); a member's own frames on request; a members
# table gives its own rows.
function(run_ensemble)
  execute_process(COMMAND "${SWE}" ensemble --scenario ritter --nx 40 --ny 4 --dx 0.25
    --precision double --arrival-depth 0.001 --t-end 2 --output-every 1 ${ARGN}
    RESULT_VARIABLE rc OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
  set(rc "${rc}" PARENT_SCOPE)
  set(stdout "${stdout}" PARENT_SCOPE)
  set(stderr "${stderr}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE "${OUT}")
run_ensemble(--members 5 --vary manning=0.01:0.05 --seed 7 --out "${OUT}" --geotiff)
if(NOT rc EQUAL 0 OR NOT stdout MATCHES "RESULT members=5 running=5 t=2 ")
  message(FATAL_ERROR "swe ensemble failed (${rc}): ${stdout}${stderr}")
endif()
file(READ "${OUT}/ensemble.pvd" pvd)
foreach(t 0 1 2)
  if(NOT pvd MATCHES "timestep=\"${t}\" part=\"0\" file=\"ensemble_0000${t}.vti\"")
    message(FATAL_ERROR "ensemble.pvd lacks t = ${t}:\n${pvd}")
  endif()
endforeach()
file(READ "${OUT}/ensemble_00002.vti" vti LIMIT 8000)
foreach(name ProbabilityFlooded MaxDepthMean MaxDepthP10 MaxDepthP50 MaxDepthP90
    ArrivalTimeEarliest ArrivalTimeMedian Bed SimulationTime Members)
  if(NOT vti MATCHES "Name=\"${name}\"")
    message(FATAL_ERROR "ensemble_00002.vti has no array ${name}")
  endif()
  if(NOT name MATCHES "Bed|SimulationTime|Members" AND NOT EXISTS "${OUT}/${name}.tif")
    message(FATAL_ERROR "--geotiff wrote no ${name}.tif")
  endif()
endforeach()
file(STRINGS "${OUT}/members.csv" rows)
list(LENGTH rows count)
list(GET rows 0 header)
if(NOT count EQUAL 6 OR NOT header STREQUAL "member,manning,status,time,steps,failure")
  message(FATAL_ERROR "members.csv: expected a header and 5 members:\n${rows}")
endif()
list(GET rows 1 first)
if(NOT first MATCHES "^1,0\\.0[1-4][0-9]*,ran,2,[0-9]+,\"\"$")
  message(FATAL_ERROR "members.csv's first member: ${first}")
endif()

# Another ensemble into the same folder is refused, naming what is there; --overwrite replaces it
# with the same members (the same seed).
run_ensemble(--members 5 --vary manning=0.01:0.05 --seed 7 --out "${OUT}")
if(rc EQUAL 0 OR NOT stderr MATCHES "holds another run's output \\(ensemble.pvd and [0-9]+ more\\)")
  message(FATAL_ERROR "a second ensemble into one folder: (${rc}) ${stderr}")
endif()
run_ensemble(--members 5 --vary manning=0.01:0.05 --seed 7 --out "${OUT}" --overwrite)
file(STRINGS "${OUT}/members.csv" again)
if(NOT rc EQUAL 0 OR NOT again STREQUAL rows OR EXISTS "${OUT}/ProbabilityFlooded.tif")
  message(FATAL_ERROR "--overwrite with the same seed: (${rc}) ${stderr}\n${again}\nagainst\n${rows}")
endif()

# --member-frames: a member's own frames as a run's series in member_N/.
run_ensemble(--members 3 --vary manning=0.01:0.05 --out "${OUT}/frames" --member-frames 2)
file(READ "${OUT}/frames/member_2/swe.pvd" pvd)
if(NOT rc EQUAL 0 OR NOT pvd MATCHES "timestep=\"2\" part=\"0\" file=\"swe_00002.vti\""
    OR EXISTS "${OUT}/frames/member_1")
  message(FATAL_ERROR "--member-frames 2: (${rc}) ${stderr}\n${pvd}")
endif()
file(READ "${OUT}/frames/member_2/swe_00002.vti" vti LIMIT 16000)
if(NOT vti MATCHES "Name=\"Depth\"" OR NOT vti MATCHES "Name=\"MaxDepth\"")
  message(FATAL_ERROR "member_2's frame lacks its Depth or flood maps")
endif()
run_ensemble(--members 3 --vary manning=0.01:0.05 --out "${OUT}/frames4" --member-frames 4)
if(rc EQUAL 0 OR NOT stderr MATCHES "--member-frames 4: the ensemble has members 1 to 3")
  message(FATAL_ERROR "--member-frames 4 of 3 members: (${rc}) ${stderr}")
endif()

# A members table: its rows, its values.
file(WRITE "${OUT}/table/members.csv" "member,manning,rain\n1,0.02,1\n2,0.03,0.5\n")
run_ensemble(--members-table "${OUT}/table/members.csv" --rain 20 --out "${OUT}/table/out")
file(STRINGS "${OUT}/table/out/members.csv" rows)
list(GET rows 2 second)
if(NOT rc EQUAL 0 OR NOT second MATCHES "^2,0\\.03,0\\.5,ran,2,")
  message(FATAL_ERROR "a members table: (${rc}) ${stderr}\n${rows}")
endif()
