#pragma once
// swe run --geotiff: the end state's depth and surface, and the fields the run keeps (flood maps,
// infiltration, inflow), as GeoTIFF files for GIS, placed and projected like the input DEM.
#include "Simulation.h"

#include <array>
#include <string>

namespace swe::cli
{
// Writes NAME.tif into outDir for Depth, FreeSurface and each kept field, the grid's lower-left
// corner at origin, in crs (empty: none). Throws swe::Error naming a file GDAL cannot write.
void writeGeoTiffs(const Simulation& simulation,
  const std::string& outDir,
  const std::array<double, 3>& origin,
  const std::string& crs);
} // namespace swe::cli
