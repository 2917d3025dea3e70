# swe's messages for input it cannot use: one line naming the bad value and the cause or fix.
# Each case was once read wrong, or failed with a message that blamed something else.

# Series files as spreadsheets write them: a BOM and quoted numbers are read (the first row was
# taken as column names, half the storm lost: the same 55000 m^3 as swe_cli_rain_series).
add_test(NAME swe_cli_series_bom_quoted COMMAND swe run --scenario lake-at-rest --nx 40 --ny 30
  --dx 50 --scheme muscl-hancock --precision double --t-end 1900 --output-every 0
  --device auto --rain-series ${CMAKE_CURRENT_SOURCE_DIR}/data/storm_bom_quoted.csv)
set_tests_properties(swe_cli_series_bom_quoted PROPERTIES
  PASS_REGULAR_EXPRESSION "RESULT steps=[0-9]+ t=1900 mass=(30054999\\.99999|30055000\\.0000)")
# A decimal comma is refused as one (0;36,5;72 was three zones), and a row wider than the
# header too.
add_test(NAME swe_cli_series_decimal_commas COMMAND swe run --scheme muscl-hancock --nx 20
  --ny 20 --rain-zones ${CMAKE_CURRENT_SOURCE_DIR}/data/rain_zones_decimal_commas.csv)
set_tests_properties(swe_cli_series_decimal_commas PROPERTIES PASS_REGULAR_EXPRESSION
  "error: '[^']*rain_zones_decimal_commas.csv' line 2: '0;36,5;72' uses decimal commas: write 36.5, not 36,5")
add_test(NAME swe_cli_series_wider_than_header COMMAND swe run --scheme muscl-hancock --nx 20
  --ny 20 --rain-zones ${CMAKE_CURRENT_SOURCE_DIR}/data/rain_zones_wider_than_header.csv)
set_tests_properties(swe_cli_series_wider_than_header PROPERTIES PASS_REGULAR_EXPRESSION
  "line 2: '0,10,20' has 3 fields where the header \\(time, zone0\\) has 2")
add_test(NAME swe_cli_series_directory COMMAND swe run --scheme muscl-hancock --nx 20 --ny 20
  --rain-series ${CMAKE_CURRENT_SOURCE_DIR}/data)
set_tests_properties(swe_cli_series_directory PROPERTIES PASS_REGULAR_EXPRESSION
  "error: the series '[^']*data' is a directory, not a CSV file")

# An address-space limit the OpenCL driver cannot load under is named, not "install a driver".
add_test(NAME swe_cli_no_device_under_address_space_limit COMMAND sh -c
  "ulimit -v 300000 && exec \"$<TARGET_FILE:swe>\" run --nx 20 --ny 20 --t-end 0.01")
set_tests_properties(swe_cli_no_device_under_address_space_limit PROPERTIES
  PASS_REGULAR_EXPRESSION
  "error: no OpenCL device found: the process's address-space limit \\(ulimit -v 300000, in KiB\\)"
  FAIL_REGULAR_EXPRESSION "install an OpenCL driver")
# --baseline's twin is counted in the memory check up front (it ended in "unexpected error:
# std::bad_alloc" once the device's part had run).
add_test(NAME swe_cli_bench_baseline_memory COMMAND sh -c
  "ulimit -v 2400000 && exec \"$<TARGET_FILE:swe>\" bench --nx 4000 --ny 4000 --steps 1 --baseline --device auto")
set_tests_properties(swe_cli_bench_baseline_memory PROPERTIES TIMEOUT 120 PASS_REGULAR_EXPRESSION
  "error: grid 4000 x 4000 needs [0-9.]+ GiB of host memory \\(.*--baseline's one-core twin [0-9.]+ GiB")
# swe bench's counts below 0 were taken as none.
foreach(option sources gauges wet-fraction)
  add_test(NAME swe_cli_bench_negative_${option} COMMAND swe bench --nx 20 --ny 20 --steps 1
    --${option} -1)
  set_tests_properties(swe_cli_bench_negative_${option} PROPERTIES PASS_REGULAR_EXPRESSION
    "error: --${option} must be (in [[(][0-9], [0-9]+\\]|>= 0).*got -1")
endforeach()
# Lax-Friedrichs with a level side at the bed: refused up front (it blew up at step 1, NaN).
add_test(NAME swe_cli_lax_friedrichs_dry_level_side COMMAND swe run --scenario lake-at-rest
  --nx 20 --ny 20 --t-end 0.1 --boundary west=level:0 --device auto)
set_tests_properties(swe_cli_lax_friedrichs_dry_level_side PROPERTIES PASS_REGULAR_EXPRESSION
  "error: the west side's water level, 0 m, is not above the bed \\(0 m\\).*Lax-Friedrichs has no dry cells")
# --arrays ',,,' names its empty name (CLI11 dropped the empties, then took --out's words).
add_test(NAME swe_cli_arrays_empty_names COMMAND swe run --nx 20 --ny 20 --arrays ,,,
  --out ${CMAKE_CURRENT_BINARY_DIR}/arrays_empty_names)
set_tests_properties(swe_cli_arrays_empty_names PROPERTIES PASS_REGULAR_EXPRESSION
  "error: --arrays ',,,' has an empty name")
# --device '' is refused (it meant auto without a word).
add_test(NAME swe_cli_device_empty COMMAND sh -c
  "exec \"$<TARGET_FILE:swe>\" run --nx 20 --ny 20 --t-end 0.01 --device ''")
set_tests_properties(swe_cli_device_empty PROPERTIES PASS_REGULAR_EXPRESSION
  "error: --device '' names no device: give a device index or name")
# A value refused beside a bound is shown with the digits that put it past (was "got 1").
add_test(NAME swe_cli_cfl_digits COMMAND swe run --nx 20 --ny 20 --cfl 1.0000001)
set_tests_properties(swe_cli_cfl_digits PROPERTIES PASS_REGULAR_EXPRESSION
  "error: Courant number \\(CFL\\) must be in \\[0.001, 1\\], got 1.0000001")
# Standard output that cannot be written (a full disk) fails the run, on stderr: it exited 0
# without its RESULT line.
add_test(NAME swe_cli_stdout_full COMMAND sh -c
  "\"$<TARGET_FILE:swe>\" run --nx 20 --ny 20 --t-end 0.01 --device auto >/dev/full; echo exit=$?")
set_tests_properties(swe_cli_stdout_full PROPERTIES PASS_REGULAR_EXPRESSION
  "error: cannot write to standard output \\(No space left on device\\).*exit=1")

# swe ensemble's members: a range upside down, no members at all, a level without a terrain to
# fill, a table's row without a value for every column.
add_test(NAME swe_cli_ensemble_range_upside_down COMMAND swe ensemble --members 4
  --vary manning=0.06:0.02)
set_tests_properties(swe_cli_ensemble_range_upside_down PROPERTIES PASS_REGULAR_EXPRESSION
  "error: --vary manning=0.06:0.02: the minimum 0.06 is above the maximum 0.02")
add_test(NAME swe_cli_ensemble_without_members COMMAND swe ensemble --nx 20 --ny 20)
set_tests_properties(swe_cli_ensemble_without_members PROPERTIES PASS_REGULAR_EXPRESSION
  "error: an ensemble needs its members: give --members N and --vary NAME=MIN:MAX")
add_test(NAME swe_cli_ensemble_level_without_terrain COMMAND swe ensemble --nx 20 --ny 20
  --members 2 --vary level=1:2)
set_tests_properties(swe_cli_ensemble_level_without_terrain PROPERTIES PASS_REGULAR_EXPRESSION
  "error: 'level' varies the initial water level of an --input terrain")
add_test(NAME swe_cli_ensemble_table_short_row COMMAND swe ensemble --nx 20 --ny 20
  --members-table ${CMAKE_CURRENT_SOURCE_DIR}/data/members_short_row.csv)
set_tests_properties(swe_cli_ensemble_table_short_row PROPERTIES PASS_REGULAR_EXPRESSION
  "error: .*members_short_row.csv' line 3: '2,0.03' has 2 fields where the header \\(member, manning, rain\\) has 3")
# Varying what the run lacks ran every member the same; a level the input's surface array
# overrides changed nothing; gauges are not kept in an ensemble.
add_test(NAME swe_cli_ensemble_rain_without_rain COMMAND swe ensemble --nx 20 --ny 20
  --members 2 --vary rain=0.5:1.5)
set_tests_properties(swe_cli_ensemble_rain_without_rain PROPERTIES PASS_REGULAR_EXPRESSION
  "error: the members vary 'rain', and the run has no rain: give --rain")
add_test(NAME swe_cli_ensemble_gauge COMMAND swe ensemble --nx 20 --ny 20 --members 2
  --vary manning=0.01:0.03 --gauge 1,1)
set_tests_properties(swe_cli_ensemble_gauge PROPERTIES PASS_REGULAR_EXPRESSION
  "error: swe ensemble keeps no gauges")
if(SWE_WITH_PARAVIEW)
  add_test(NAME swe_cli_ensemble_level_overridden COMMAND swe ensemble
    --input ${PROJECT_SOURCE_DIR}/data/valley.vti --members 2 --vary level=30:40 --t-end 1)
  set_tests_properties(swe_cli_ensemble_level_overridden PROPERTIES PASS_REGULAR_EXPRESSION
    "error: the members vary 'level', and the initial water of .*valley.vti comes from its depth or surface array whatever the level: give --depth-array none --surface-array none")
endif()
