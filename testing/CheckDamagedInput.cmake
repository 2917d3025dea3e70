# swe run --input with a damaged or ill-georeferenced terrain (made here from data/valley.*): one
# error line naming the file and what is wrong, instead of a crash (an abort in VTK's GDAL
# reader, a read past an array's end) or a silent run on cells of the wrong size, unit or
# orientation.
# -DSWE=swe -DDATA=data folder -DWORK=folder for the files -DCASE=which -DEXPECT=regex
file(MAKE_DIRECTORY "${WORK}")
file(STRINGS "${DATA}/valley.asc" asc_lines)
list(SUBLIST asc_lines 0 6 asc_header)

# A VRT over the valley's ASCII grid, with `extra` (its CRS, its geotransform) in it.
function(write_vrt path extra)
  file(WRITE "${path}" "<VRTDataset rasterXSize=\"160\" rasterYSize=\"100\">${extra}
  <VRTRasterBand dataType=\"Float32\" band=\"1\"><SimpleSource>
    <SourceFilename relativeToVRT=\"0\">${DATA}/valley.asc</SourceFilename>
    <SourceBand>1</SourceBand></SimpleSource></VRTRasterBand>
</VRTDataset>\n")
endfunction()

if(CASE STREQUAL "truncated_vti")
  # (the XML parser's reason, not what an empty image would look like afterwards)
  set(input "${WORK}/truncated.vti")
  file(READ "${DATA}/valley.vti" head LIMIT 3000)
  file(WRITE "${input}" "${head}")
elseif(CASE STREQUAL "truncated_tif")
  set(input "${WORK}/truncated.tif")
  execute_process(COMMAND head -c 30000 "${DATA}/valley.tif" OUTPUT_FILE "${input}")
elseif(CASE STREQUAL "asc_short")
  # (50 of its 100 rows)
  set(input "${WORK}/short.asc")
  list(SUBLIST asc_lines 0 56 lines)
  list(JOIN lines "\n" text)
  file(WRITE "${input}" "${text}\n")
elseif(CASE STREQUAL "asc_text")
  # (the second value of the 15th row a word)
  set(input "${WORK}/text.asc")
  list(GET asc_lines 20 row)
  string(REGEX REPLACE "^([^ ]+) [^ ]+" "\\1 xyz" row "${row}")
  list(REMOVE_AT asc_lines 20)
  list(INSERT asc_lines 20 "${row}")
  list(JOIN asc_lines "\n" text)
  file(WRITE "${input}" "${text}\n")
elseif(CASE STREQUAL "asc_negative_cellsize")
  set(input "${WORK}/negative.asc")
  list(JOIN asc_lines "\n" text)
  string(REPLACE "cellsize 5" "cellsize -5" text "${text}")
  file(WRITE "${input}" "${text}\n")
elseif(CASE STREQUAL "no_geotransform")
  set(input "${WORK}/no_geotransform.vrt")
  write_vrt("${input}" "")
elseif(CASE STREQUAL "feet")
  # (NAD83 / New York Long Island in US survey feet, placed on Long Island)
  set(input "${WORK}/feet.vrt")
  write_vrt("${input}" "<SRS>EPSG:2263</SRS>
  <GeoTransform>1000000, 16.4, 0, 200000, 0, -16.4</GeoTransform>")
elseif(CASE STREQUAL "vti_uncovered_cells")
  # (a WholeExtent of 8 x 6 cells, its one piece 4 x 3 of them)
  set(input "${WORK}/uncovered.vti")
  file(WRITE "${input}" "<?xml version=\"1.0\"?>
<VTKFile type=\"ImageData\" version=\"0.1\" byte_order=\"LittleEndian\">
  <ImageData WholeExtent=\"0 8 0 6 0 0\" Origin=\"0 0 0\" Spacing=\"1 1 1\">
  <Piece Extent=\"0 4 0 3 0 0\"><CellData>
    <DataArray type=\"Float64\" Name=\"Bed\" format=\"ascii\">0 1 2 3 4 5 6 7 8 9 10 11</DataArray>
  </CellData></Piece>
  </ImageData>
</VTKFile>\n")
else()
  message(FATAL_ERROR "unknown CASE '${CASE}'")
endif()

execute_process(COMMAND "${SWE}" run --input "${input}" --t-end 1
  RESULT_VARIABLE rc OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
# (a signal comes back as words: "Child aborted", "Segmentation fault")
if(NOT rc MATCHES "^[0-9]+$" OR rc EQUAL 0)
  message(FATAL_ERROR "swe run on ${CASE} ended with '${rc}', not an error:\n${stdout}${stderr}")
endif()
string(REGEX REPLACE "[][.*+?^$()|\\]" "\\\\\\0" file_pattern "${input}")
string(REPLACE "<FILE>" "${file_pattern}" EXPECT "${EXPECT}")
if(NOT stderr MATCHES "swe: error: ${EXPECT}")
  message(FATAL_ERROR "the error does not say what is wrong (${EXPECT}):\n${stderr}")
endif()
if(stderr MATCHES "layers")
  message(FATAL_ERROR "the error blames the image's shape, not the damaged file:\n${stderr}")
endif()
string(REGEX REPLACE "\n$" "" stderr "${stderr}")
if(stderr MATCHES "\n")
  message(FATAL_ERROR "more than the one error line on stderr:\n${stderr}")
endif()
