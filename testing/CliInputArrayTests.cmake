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
