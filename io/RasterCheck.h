#pragma once
// A terrain raster checked through GDAL before VTK's GDAL reader reads it: that reader aborts the
// process on a file it cannot read whole, and takes a raster's cells as it finds them (a missing
// geotransform as cells of 1 m, feet as metres). VTK-free: swe run --input calls
// checkRasterFile; the Shallow Water Solver filter, through ImageInitialState, requireMetreCrs.
#include <string>

namespace swe
{
// Throws swe::Error naming `file` and what is wrong with it: GDAL cannot open it or read every
// band whole (truncated, damaged: GDAL's own message); an ESRI ASCII grid with a value that is not
// a number, not ncols x nrows of them, or a cell size that is not positive (it would be
// mirrored); no geotransform (no cell size); a coordinate reference system not in metres
// (requireMetreCrs).
void checkRasterFile(const std::string& file);

// Throws swe::Error for a terrain's coordinate reference system whose unit is not the metre: a
// geographic one (degrees) or a projected one in feet. The message gives the gdalwarp command to
// the UTM zone at (x, y) (a point of the terrain, in the system's units) for `file` ("" names a
// placeholder). Nothing for metres, none, or a system GDAL does not know.
void requireMetreCrs(const std::string& crs, double x, double y, const std::string& file = "");
} // namespace swe
