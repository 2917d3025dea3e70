#include "GeoTiff.h"

#include "AtomicFile.h"
#include "Error.h"

#include <cpl_conv.h>
#include <cpl_error.h>
#include <cpl_string.h>
#include <gdal.h>
#include <ogr_srs_api.h>

#include <limits>
#include <memory>

namespace swe
{
namespace
{
// While it lives, GDAL's messages are kept for gdalMessage, not printed: they become the one error
// that names the file.
struct QuietGdal
{
  QuietGdal() { CPLPushErrorHandler(CPLQuietErrorHandler); }
  ~QuietGdal() { CPLPopErrorHandler(); }
  QuietGdal(const QuietGdal&) = delete;
  QuietGdal& operator=(const QuietGdal&) = delete;
};

// GDAL's last error, or `fallback` where it has none.
std::string gdalMessage(const std::string& fallback)
{
  const char* message = CPLGetLastErrorMsg();
  return message && *message ? std::string(message) : fallback;
}

// The CRS as WKT, or "" for none. Throws swe::Error naming a CRS GDAL does not know.
std::string crsWkt(const std::string& crs)
{
  if (crs.empty())
    return "";
  const std::unique_ptr<void, void (*)(OGRSpatialReferenceH)> srs(
    OSRNewSpatialReference(nullptr), OSRDestroySpatialReference);
  char* wkt = nullptr;
  if (OSRSetFromUserInput(srs.get(), crs.c_str()) != OGRERR_NONE ||
      OSRExportToWkt(srs.get(), &wkt) != OGRERR_NONE)
    throw Error("the coordinate reference system '" + crs +
                "' is not one GDAL knows: give an EPSG code (EPSG:32633), a PROJ string or WKT");
  const std::string text = wkt;
  CPLFree(wkt);
  return text;
}
} // namespace

void checkCrs(const std::string& crs)
{
  crsWkt(crs);
}

void writeGeoTiff(const std::string& path,
  const GeoRaster& raster,
  const std::vector<GeoBand>& bands,
  bool doublePrecision)
{
  if (bands.empty())
    throw Error("no cell arrays to write into the GeoTIFF '" + path + "'");
  const std::size_t cells = static_cast<std::size_t>(raster.nx) * raster.ny;
  for (const GeoBand& band : bands)
    if (band.values.size() != cells)
      throw Error("the array " + band.name + " has " + std::to_string(band.values.size()) +
                  " values for a grid of " + std::to_string(cells) + " cells");
  const std::string wkt = crsWkt(raster.crs);
  GDALAllRegister();
  GDALDriverH driver = GDALGetDriverByName("GTiff");
  if (!driver)
    throw Error("GDAL has no GeoTIFF driver here");
  char** options = nullptr;
  options = CSLSetNameValue(options, "COMPRESS", "DEFLATE");
  options = CSLSetNameValue(options, "TILED", "YES");
  const GDALDataType type = doublePrecision ? GDT_Float64 : GDT_Float32;
  const QuietGdal quiet;
  CPLErrorReset();
  // (GDAL writes a temporary file, renamed when whole: a failed write leaves path as it was)
  AtomicFile file(path);
  GDALDatasetH dataset = GDALCreate(driver,
    file.temporaryPath().c_str(),
    raster.nx,
    raster.ny,
    static_cast<int>(bands.size()),
    type,
    options);
  CSLDestroy(options);
  if (!dataset)
    throw Error("cannot write the GeoTIFF '" + path + "': " + gdalMessage("GDAL refused it"));
  // North up: row 0 of the file is the grid's northernmost row.
  double transform[6] = {
    raster.origin[0], raster.dx, 0, raster.origin[1] + raster.ny * raster.dx, 0, -raster.dx
  };
  bool ok = GDALSetGeoTransform(dataset, transform) == CE_None &&
            (wkt.empty() || GDALSetProjection(dataset, wkt.c_str()) == CE_None);
  for (std::size_t b = 0; ok && b < bands.size(); ++b)
  {
    GDALRasterBandH band = GDALGetRasterBand(dataset, static_cast<int>(b) + 1);
    GDALSetDescription(band, bands[b].name.c_str());
    ok = GDALSetRasterNoDataValue(band, std::numeric_limits<double>::quiet_NaN()) == CE_None;
    for (int row = 0; ok && row < raster.ny; ++row)
      ok = GDALRasterIO(band,
             GF_Write,
             0,
             row,
             raster.nx,
             1,
             const_cast<double*>(bands[b].values.data()) +
               static_cast<std::size_t>(raster.ny - 1 - row) * raster.nx,
             raster.nx,
             1,
             GDT_Float64,
             0,
             0) == CE_None;
  }
  std::string failure = ok ? "" : gdalMessage("GDAL failed");
  CPLErrorReset();
  GDALClose(dataset); // (writes what is left: a full disk shows here)
  if (failure.empty() && CPLGetLastErrorType() >= CE_Failure)
    failure = gdalMessage("GDAL failed");
  if (!failure.empty())
    throw Error("cannot write the GeoTIFF '" + path + "': " + failure);
  file.commit();
}
} // namespace swe
