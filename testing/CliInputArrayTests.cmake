# swe run --input's optional arrays on testing/data/input_arrays.vti: the same input given two
# ways makes the same state (CheckSameDigest.cmake), and what cannot be used is refused in one
# line naming the value and the fix.
set(input_arrays ${CMAKE_CURRENT_SOURCE_DIR}/data/input_arrays.vti)
set(input_run run --input ${input_arrays} --depth-array Depth --precision double)

# A velocity in two one-component arrays (a model's, in two GeoTIFF bands) is the 2-component
# array's: the same initial hu and hv.
add_test(NAME swe_cli_velocity_two_arrays COMMAND ${CMAKE_COMMAND} -DSWE=$<TARGET_FILE:swe>
  "-DSAME_A=${input_run};--t-end;0;--velocity-array;Velocity"
  "-DSAME_B=${input_run};--t-end;0;--velocity-array;U, V"
  "-DOTHER=${input_run};--t-end;0;--velocity-array;none"
  -P ${CMAKE_CURRENT_SOURCE_DIR}/CheckSameDigest.cmake)
set_tests_properties(swe_cli_velocity_two_arrays PROPERTIES
  PASS_REGULAR_EXPRESSION "PASS" FAIL_REGULAR_EXPRESSION "FAIL")
set(velocity_errors
  "one_of_two|U,none|error: the initial velocity from two arrays needs both: the x array is 'U' and the y array is None: set Velocity Y Array too"
  "three_names|U,V,W|error: --velocity-array 'U,V,W' should name one array of 2 or 3 components \\(x and y\\), or two arrays of one, x then y"
  "vector_as_y|U,Velocity3|error: the Velocity Y Array 'Velocity3' has 3 components: it takes one, the velocity along y"
  "missing|U,Nope|error: the input has no array 'Nope' for the y velocity \\(arrays: Bed, ")
foreach(case IN LISTS velocity_errors)
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 arrays)
  list(GET parts 2 expect)
  add_test(NAME swe_cli_velocity_arrays_${name} COMMAND swe ${input_run} --t-end 0
    --velocity-array ${arrays})
  set_tests_properties(swe_cli_velocity_arrays_${name} PROPERTIES
    PASS_REGULAR_EXPRESSION "${expect}")
endforeach()

# Manning's n from a land-use class array and a CSV table is the Manning array holding the same
# n (LandUseN): the same run, bit for bit. The closed cell's class (99) has no row: not looked up.
set(flowing ${input_run} --velocity-array Velocity --t-end 1)
set(classes ${CMAKE_CURRENT_SOURCE_DIR}/data/manning_classes)
add_test(NAME swe_cli_manning_classes COMMAND ${CMAKE_COMMAND} -DSWE=$<TARGET_FILE:swe>
  "-DSAME_A=${flowing};--manning-array;LandUseN"
  "-DSAME_B=${flowing};--manning-class-array;LandUse;--manning-table;${classes}.csv"
  "-DOTHER=${flowing}"
  -P ${CMAKE_CURRENT_SOURCE_DIR}/CheckSameDigest.cmake)
set_tests_properties(swe_cli_manning_classes PROPERTIES
  PASS_REGULAR_EXPRESSION "PASS" FAIL_REGULAR_EXPRESSION "FAIL")
set(manning_errors
  "class_without_n|LandUse|_missing.csv|error: the Manning class array 'LandUse' holds class 3 \\(8 cells\\), which the Manning table '[^']*manning_classes_missing.csv' has no row for: add a row \\(class, n\\) for it"
  "fractional_class|LandUseHalf|.csv|error: the Manning class array 'LandUseHalf' holds 2.5 at cell \\(2, 2\\), not a whole-number class"
  "fractional_table_class|LandUse|_fractional.csv|error: the class of row \\(1.5, 0.03\\) of the Manning table '[^']*' is not a whole number"
  "bad_n|LandUse|_bad_n.csv|error: Manning coefficient must be in \\[0, 1\\] s/m\\^\\(1/3\\), got 1.5 in row \\(2, 1.5\\) of the Manning table"
  "no_header|LandUse|_no_header.csv|error: the Manning table '[^']*manning_classes_no_header.csv' needs a header naming its columns class and n, e.g. class,n \\(it has none\\)")
foreach(case IN LISTS manning_errors)
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 array)
  list(GET parts 2 table)
  list(GET parts 3 expect)
  add_test(NAME swe_cli_manning_classes_${name} COMMAND swe ${input_run} --t-end 0
    --manning-class-array ${array} --manning-table ${classes}${table})
  set_tests_properties(swe_cli_manning_classes_${name} PROPERTIES
    PASS_REGULAR_EXPRESSION "${expect}")
endforeach()
# Both a Manning array and a class array; a class array without its table, a table without it.
add_test(NAME swe_cli_manning_classes_both_arrays COMMAND swe ${input_run} --t-end 0
  --manning-array LandUseN --manning-class-array LandUse --manning-table ${classes}.csv)
set_tests_properties(swe_cli_manning_classes_both_arrays PROPERTIES PASS_REGULAR_EXPRESSION
  "error: the Manning coefficient is given twice, by the Manning array 'LandUseN' and the Manning class array 'LandUse': set Manning Array to None to use the classes \\(swe run: --manning-array none\\)")
add_test(NAME swe_cli_manning_classes_without_table COMMAND swe ${input_run} --t-end 0
  --manning-class-array LandUse)
set_tests_properties(swe_cli_manning_classes_without_table PROPERTIES PASS_REGULAR_EXPRESSION
  "error: --manning-class-array LandUse takes each class's n from --manning-table")
add_test(NAME swe_cli_manning_table_without_classes COMMAND swe ${input_run} --t-end 0
  --manning-table ${classes}.csv)
set_tests_properties(swe_cli_manning_table_without_classes PROPERTIES PASS_REGULAR_EXPRESSION
  "error: --manning-table [^ ]*manning_classes.csv maps the classes of --manning-class-array to n: give the class array")

# Discharge by zone (--source-array, --source-zones) is a point source a cell of the zone, each
# with the zone's discharge over its cell count: the same run, bit for bit, as those sources
# given one by one (cells of 2 m from (100, 200); the closed cell (3, 1) is in no zone).
set(zones ${CMAKE_CURRENT_SOURCE_DIR}/data/source_zones)
set(one ${CMAKE_CURRENT_SOURCE_DIR}/data/source_one.csv)
set(half ${CMAKE_CURRENT_SOURCE_DIR}/data/source_half.csv)
set(by_hand)
foreach(cell "101,201:${one}" "103,201:${one}" "101,203:${one}" "103,203:${one}"
    "109,201:${half}" "111,201:${half}" "109,203:${half}" "111,203:${half}" "111,207:${half}")
  list(APPEND by_hand --source ${cell})
endforeach()
string(REPLACE ";" "\\;" by_hand_arg "${by_hand}")
add_test(NAME swe_cli_source_zones COMMAND ${CMAKE_COMMAND} -DSWE=$<TARGET_FILE:swe>
  "-DSAME_A=${flowing};--source-array;Zone;--source-zones;${zones}.csv"
  "-DSAME_B=${flowing};${by_hand}"
  "-DOTHER=${flowing}"
  -P ${CMAKE_CURRENT_SOURCE_DIR}/CheckSameDigest.cmake)
set_tests_properties(swe_cli_source_zones PROPERTIES
  PASS_REGULAR_EXPRESSION "PASS" FAIL_REGULAR_EXPRESSION "FAIL")
set(zone_errors
  "without_series|Zone|_two.csv|error: cell \\(5, 3\\) is in source zone 2, but the discharge series give 2 zones \\(0 to 1\\): add a discharge column for zone 2, or give its cells a negative zone"
  "fractional|ZoneHalf|.csv|error: the source zone array holds 0.5 at cell \\(5, 3\\): a zone is a whole number"
  "without_cells|Zone|_four.csv|error: source zone 3 has a discharge series but no cell in the zone array: its water would be lost")
foreach(case IN LISTS zone_errors)
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 array)
  list(GET parts 2 table)
  list(GET parts 3 expect)
  add_test(NAME swe_cli_source_zones_${name} COMMAND swe ${input_run} --t-end 0
    --source-array ${array} --source-zones ${zones}${table})
  set_tests_properties(swe_cli_source_zones_${name} PROPERTIES
    PASS_REGULAR_EXPRESSION "${expect}")
endforeach()
add_test(NAME swe_cli_source_array_without_zones COMMAND swe ${input_run} --t-end 0
  --source-array Zone)
set_tests_properties(swe_cli_source_array_without_zones PROPERTIES PASS_REGULAR_EXPRESSION
  "error: --source-array Zone gives each cell's source zone: give the zones' discharges with --source-zones")
add_test(NAME swe_cli_source_zones_without_array COMMAND swe ${input_run} --t-end 0
  --source-zones ${zones}.csv)
set_tests_properties(swe_cli_source_zones_without_array PROPERTIES PASS_REGULAR_EXPRESSION
  "error: --source-zones [^ ]*source_zones.csv spreads each zone's discharge over its cells: name the array of --input")
