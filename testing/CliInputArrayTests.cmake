# swe run --input's optional arrays on testing/data/input_arrays.vti: the same input given two
# ways makes the same state (CheckSameDigest.cmake), and what cannot be used is refused in one
# line naming the value and the fix.
set(input_arrays ${CMAKE_CURRENT_SOURCE_DIR}/data/input_arrays.vti)
set(input_run run --input ${input_arrays} --depth-array Depth --precision double)

# Two ways of giving swe run the same input make the same state (CheckSameDigest.cmake), a third
# another: the test NAME with the three argument lists.
function(add_same_digest_test name same_a same_b other)
  add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} -DSWE=$<TARGET_FILE:swe> "-DSAME_A=${same_a}"
    "-DSAME_B=${same_b}" "-DOTHER=${other}" -P ${CMAKE_CURRENT_SOURCE_DIR}/CheckSameDigest.cmake)
  set_tests_properties(${name} PROPERTIES
    PASS_REGULAR_EXPRESSION "PASS" FAIL_REGULAR_EXPRESSION "FAIL")
endfunction()

# swe run on the input with the arguments after EXPECT refuses it, saying EXPECT (a regex).
function(add_refusal_test name expect)
  add_test(NAME ${name} COMMAND swe ${input_run} --t-end 0 ${ARGN})
  set_tests_properties(${name} PROPERTIES PASS_REGULAR_EXPRESSION "${expect}")
endfunction()

# A case "A|B|...": its fields into the variables named after it (a function, as a macro would
# read the regexes' escapes again).
function(split_case case)
  string(REPLACE "|" ";" fields "${case}")
  set(names ${ARGN})
  list(LENGTH names count)
  math(EXPR last "${count} - 1")
  foreach(k RANGE ${last})
    list(GET names ${k} name)
    list(GET fields ${k} value)
    set(${name} "${value}" PARENT_SCOPE)
  endforeach()
endfunction()

# A velocity in two one-component arrays (a model's, in two GeoTIFF bands) is the 2-component
# array's: the same initial hu and hv.
add_same_digest_test(swe_cli_velocity_two_arrays
  "${input_run};--t-end;0;--velocity-array;Velocity"
  "${input_run};--t-end;0;--velocity-array;U, V"
  "${input_run};--t-end;0;--velocity-array;none")
set(velocity_errors
  "one_of_two|U,none|error: the initial velocity from two arrays needs both: the x array is 'U' and the y array is None: set Velocity Y Array too"
  "three_names|U,V,W|error: --velocity-array 'U,V,W' should name one array of 2 or 3 components \\(x and y\\), or two arrays of one, x then y"
  "vector_as_y|U,Velocity3|error: the Velocity Y Array 'Velocity3' has 3 components: it takes one, the velocity along y"
  "missing|U,Nope|error: the input has no array 'Nope' for the y velocity \\(arrays: Bed, ")
foreach(case IN LISTS velocity_errors)
  split_case("${case}" name arrays expect)
  add_refusal_test(swe_cli_velocity_arrays_${name} "${expect}" --velocity-array ${arrays})
endforeach()

# Manning's n from a land-use class array and a CSV table is the Manning array holding the same
# n (LandUseN): the same run, bit for bit. The closed cell's class (99) has no row: not looked up.
set(flowing ${input_run} --velocity-array Velocity --t-end 1)
set(classes ${CMAKE_CURRENT_SOURCE_DIR}/data/manning_classes)
add_same_digest_test(swe_cli_manning_classes
  "${flowing};--manning-array;LandUseN"
  "${flowing};--manning-class-array;LandUse;--manning-table;${classes}.csv"
  "${flowing}")
set(manning_errors
  "class_without_n|LandUse|_missing.csv|error: the Manning class array 'LandUse' holds class 3 \\(8 cells\\), which the Manning table '[^']*manning_classes_missing.csv' has no row for: add a row \\(class, n\\) for it"
  "fractional_class|LandUseHalf|.csv|error: the Manning class array 'LandUseHalf' holds 2.5 at cell \\(2, 2\\), not a whole-number class"
  "fractional_table_class|LandUse|_fractional.csv|error: the class of row \\(1.5, 0.03\\) of the Manning table '[^']*' is not a whole number"
  "bad_n|LandUse|_bad_n.csv|error: Manning coefficient must be in \\[0, 1\\] s/m\\^\\(1/3\\), got 1.5 in row \\(2, 1.5\\) of the Manning table"
  "no_header|LandUse|_no_header.csv|error: the Manning table '[^']*manning_classes_no_header.csv' needs a header naming its columns class and n, e.g. class,n \\(it has none\\)")
foreach(case IN LISTS manning_errors)
  split_case("${case}" name array table expect)
  add_refusal_test(swe_cli_manning_classes_${name} "${expect}"
    --manning-class-array ${array} --manning-table ${classes}${table})
endforeach()
# Both a Manning array and a class array; a class array without its table, a table without it.
add_refusal_test(swe_cli_manning_classes_both_arrays
  "error: the Manning coefficient is given twice, by the Manning array 'LandUseN' and the Manning class array 'LandUse': set Manning Array to None to use the classes \\(swe run: --manning-array none\\)"
  --manning-array LandUseN --manning-class-array LandUse --manning-table ${classes}.csv)
add_refusal_test(swe_cli_manning_classes_without_table
  "error: --manning-class-array LandUse takes each class's n from --manning-table"
  --manning-class-array LandUse)
add_refusal_test(swe_cli_manning_table_without_classes
  "error: --manning-table [^ ]*manning_classes.csv maps the classes of --manning-class-array to n: give the class array"
  --manning-table ${classes}.csv)

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
add_same_digest_test(swe_cli_source_zones
  "${flowing};--source-array;Zone;--source-zones;${zones}.csv"
  "${flowing};${by_hand}"
  "${flowing}")
set(zone_errors
  "without_series|Zone|_two.csv|error: cell \\(5, 3\\) is in source zone 2, but the discharge series give 2 zones \\(0 to 1\\): add a discharge column for zone 2, or give its cells a negative zone"
  "fractional|ZoneHalf|.csv|error: the source zone array holds 0.5 at cell \\(5, 3\\): a zone is a whole number"
  "without_cells|Zone|_four.csv|error: source zone 3 has a discharge series but no cell in the zone array: its water would be lost")
foreach(case IN LISTS zone_errors)
  split_case("${case}" name array table expect)
  add_refusal_test(swe_cli_source_zones_${name} "${expect}"
    --source-array ${array} --source-zones ${zones}${table})
endforeach()
add_refusal_test(swe_cli_source_array_without_zones
  "error: --source-array Zone gives each cell's source zone: give the zones' discharges with --source-zones"
  --source-array Zone)
add_refusal_test(swe_cli_source_zones_without_array
  "error: --source-zones [^ ]*source_zones.csv spreads each zone's discharge over its cells: name the array of --input"
  --source-zones ${zones}.csv)
