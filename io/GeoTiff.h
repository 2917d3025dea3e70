#pragma once
// GeoTIFF output through GDAL: rasters of a run's cell arrays georeferenced like the terrain they
// came from, for GIS (QGIS, ArcGIS). VTK-free: the writer proxy (vtkShallowWaterGeoTiffWriter) and
// swe run --geotiff both call it.
#include <array>
#include <string>
#include <vector>

namespace swe
{
// A grid of nx x ny square cells of size dx whose lower-left corner is at `origin` (x, y in the
// coordinate reference system's units), cell values row after row from the south (as VTK and the
// engine hold them), NaN where there is no value.
struct GeoRaster
{
  int nx = 0, ny = 0;
  double dx = 1;
  std::array<double, 2> origin{ 0, 0 };
  // The coordinate reference system as GDAL takes it ("EPSG:32633", a PROJ string such as the
  // GDAL reader's MAP_PROJECTION, or WKT); empty: none (the file is placed, not projected).
  std::string crs;
};

struct GeoBand
{
  std::string name;           // the band's description (QGIS shows it)
  std::vector<double> values; // nx * ny
};

// Throws swe::Error for a coordinate reference system GDAL does not know (nothing for "").
void checkCrs(const std::string& crs);

// Writes the bands into one GeoTIFF at path (Float32, or Float64 where `doublePrecision`), north
// up, NaN as its no-data value, deflate-compressed. Throws swe::Error naming the path, the CRS or
// GDAL's own message.
void writeGeoTiff(const std::string& path,
  const GeoRaster& raster,
  const std::vector<GeoBand>& bands,
  bool doublePrecision = false);
} // namespace swe
