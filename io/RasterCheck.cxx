#include "RasterCheck.h"

#include "Error.h"
#include "Parameters.h"

#include <cpl_error.h>
#include <gdal.h>
#include <ogr_srs_api.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <memory>
#include <sstream>
#include <vector>

namespace swe
{
namespace
{
// GDAL's errors while an object lives, collected instead of printed. Warnings are left out: VTK's
// reader opens the file again afterwards and prints those.
class GdalErrors
{
public:
  GdalErrors() { CPLPushErrorHandlerEx(&GdalErrors::collect, this); }
  ~GdalErrors() { CPLPopErrorHandler(); }
  GdalErrors(const GdalErrors&) = delete;
  GdalErrors& operator=(const GdalErrors&) = delete;

  // GDAL's first error (the cause; the later ones repeat it from the callers), or `fallback`.
  std::string reason(const std::string& fallback) const
  {
    return Failures.empty() ? fallback : Failures.front();
  }

private:
  static void CPL_STDCALL collect(CPLErr type, CPLErrorNum, const char* message)
  {
    auto* self = static_cast<GdalErrors*>(CPLGetErrorHandlerUserData());
    if (self && type >= CE_Failure)
      self->Failures.emplace_back(message ? message : "unknown error");
  }
  std::vector<std::string> Failures;
};

using Dataset = std::unique_ptr<void, void (*)(GDALDatasetH)>;
using SpatialReference = std::unique_ptr<void, void (*)(OGRSpatialReferenceH)>;

std::string damaged(const std::string& file, const std::string& reason)
{
  return "cannot read '" + file + "': " + reason + " (the file may be truncated or damaged)";
}

// Reads every band's every cell: a truncated or damaged file fails here, in GDAL, with its
// message (VTK's reader would abort the process on it). In strips of the band's blocks, at most
// 64 MiB at a time.
void readEveryBand(GDALDatasetH dataset, const std::string& file, const GdalErrors& errors)
{
  const int nx = GDALGetRasterXSize(dataset), ny = GDALGetRasterYSize(dataset);
  for (int b = 1; b <= GDALGetRasterCount(dataset); ++b)
  {
    GDALRasterBandH band = GDALGetRasterBand(dataset, b);
    int blockX = 0, blockY = 0;
    GDALGetBlockSize(band, &blockX, &blockY);
    const int rows = std::clamp(blockY, 1, std::max(1, (8 << 20) / std::max(nx, 1)));
    std::vector<double> strip(static_cast<std::size_t>(nx) * rows);
    for (int row = 0; row < ny; row += rows)
    {
      const int count = std::min(rows, ny - row);
      if (GDALRasterIO(
            band, GF_Read, 0, row, nx, count, strip.data(), nx, count, GDT_Float64, 0, 0) !=
          CE_None)
        throw Error(damaged(file,
          "band " + std::to_string(b) + ", rows " + std::to_string(row + 1) + " to " +
            std::to_string(row + count) + " of " + std::to_string(ny) + ": " +
            errors.reason("GDAL could not read them")));
    }
  }
}

// Whether the line starting at `word` is a line of an ESRI ASCII grid's header ("cellsize 5"):
// a word that is not a number, then its value. Its cell size must be positive: GDAL reads a
// negative one as cells running west and rows north from the first, the grid mirrored both ways.
bool asciiGridHeader(const char* word, const std::string& file, long long number)
{
  char* end = nullptr;
  std::strtod(word, &end);
  if (end != word && (*end == '\0' || std::isspace(static_cast<unsigned char>(*end))))
    return false;
  while (*end && !std::isspace(static_cast<unsigned char>(*end)))
    ++end;
  std::string keyword(word, static_cast<const char*>(end));
  for (char& c : keyword)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  char* rest = nullptr;
  const double value = std::strtod(end, &rest);
  while (std::isspace(static_cast<unsigned char>(*rest)))
    ++rest;
  if (*rest)
    return false; // (more than a keyword and its value: a row of data with a word in it)
  if ((keyword == "cellsize" || keyword == "dx" || keyword == "dy") && !(value > 0))
    throw Error("'" + file + "' line " + std::to_string(number) + ": " + keyword + " " +
                formatValue(value) +
                " is not positive: GDAL would lay the ESRI ASCII grid out mirrored (its first "
                "row south, its columns running west). Give the cell size as a positive number");
  return true;
}

// An ESRI ASCII grid's values, which GDAL reads leniently: a word among the numbers as 0, values
// past ncols x nrows not at all. Each must be a number, and there must be nx x ny of them.
void checkAsciiGridValues(const std::string& file, int nx, int ny)
{
  std::ifstream in(file);
  std::string line;
  long long values = 0;
  const long long expected = static_cast<long long>(nx) * ny;
  bool header = true;
  for (long long number = 1; std::getline(in, line); ++number)
  {
    const char* p = line.c_str();
    while (std::isspace(static_cast<unsigned char>(*p)))
      ++p;
    if (header && asciiGridHeader(p, file, number))
      continue;
    header = false;
    while (*p)
    {
      char* end = nullptr;
      std::strtod(p, &end);
      if (end == p || (*end && !std::isspace(static_cast<unsigned char>(*end))))
      {
        const char* word = p;
        while (*p && !std::isspace(static_cast<unsigned char>(*p)))
          ++p;
        throw Error("'" + file + "' line " + std::to_string(number) + ": '" + std::string(word, p) +
                    "' is not a number (after its header, an ESRI ASCII grid holds numbers "
                    "only; GDAL would read it as 0)");
      }
      ++values;
      for (p = end; std::isspace(static_cast<unsigned char>(*p));)
        ++p;
    }
  }
  if (values != expected)
    throw Error("'" + file + "' holds " + std::to_string(values) + " values, and its header's " +
                "ncols x nrows (" + std::to_string(nx) + " x " + std::to_string(ny) +
                ") asks for " + std::to_string(expected) +
                ": the file is cut short or its header is wrong (the grid would be " +
                (values < expected ? "unreadable)" : "read without its last values)"));
}

// The raster's cell size and position: refused without them (GDAL then gives cells of 1 x 1,
// which would run as 1 m). Cells running west or rows north (a negative width, a positive
// height) are laid out by VTK's reader as they lie; a rotated grid is refused by the caller,
// which has the reader's own corners.
void checkGeotransform(GDALDatasetH dataset, const std::string& file, double transform[6])
{
  if (GDALGetGeoTransform(dataset, transform) != CE_None || transform[1] == 0 || transform[5] == 0)
    throw Error("'" + file +
                "' has no geotransform (no cell size or position): the solver would run its "
                "cells as 1 m. Georeference it first (gdal_translate -a_srs EPSG:<code> "
                "-a_ullr <west> <north> <east> <south> " +
                file + " georeferenced.tif)");
}

// The EPSG code of the UTM zone at (x, y) in srs, for the message's command; a placeholder where
// the point cannot be placed on the globe.
std::string utmZone(OGRSpatialReferenceH srs, double x, double y)
{
  const SpatialReference wgs84(OSRNewSpatialReference(nullptr), OSRDestroySpatialReference);
  OSRSetWellKnownGeogCS(wgs84.get(), "WGS84");
  OSRSetAxisMappingStrategy(wgs84.get(), OAMS_TRADITIONAL_GIS_ORDER);
  OSRSetAxisMappingStrategy(srs, OAMS_TRADITIONAL_GIS_ORDER);
  GdalErrors quiet;
  const std::unique_ptr<void, void (*)(OGRCoordinateTransformationH)> toLonLat(
    OCTNewCoordinateTransformation(srs, wgs84.get()), OCTDestroyCoordinateTransformation);
  if (!toLonLat || !OCTTransform(toLonLat.get(), 1, &x, &y, nullptr) || !std::isfinite(x) ||
      !(std::fabs(y) <= 90))
    return "EPSG:326<zone>";
  const int zone = std::clamp(static_cast<int>(std::floor((x + 180) / 6)) + 1, 1, 60);
  return "EPSG:" + std::to_string((y >= 0 ? 32600 : 32700) + zone);
}
} // namespace

void requireMetreCrs(const std::string& crs, double x, double y, const std::string& file)
{
  const SpatialReference srs(OSRNewSpatialReference(nullptr), OSRDestroySpatialReference);
  // (a system GDAL cannot read is left to the GeoTIFF writer, which names it)
  if (crs.empty() || OSRSetFromUserInput(srs.get(), crs.c_str()) != OGRERR_NONE)
    return;
  const char* name = OSRGetName(srs.get());
  const bool named = name && std::string(name) != "unknown";
  const std::string in = file.empty() ? "dem.tif" : file;
  const std::size_t dot = in.rfind('.'), slash = in.rfind('/');
  const bool extension = dot != std::string::npos && (slash == std::string::npos || dot > slash);
  const std::string stem = in.substr(0, extension ? dot : in.size());
  const std::string out = stem + "_utm.tif";
  const std::string warp = "gdalwarp -t_srs " + utmZone(srs.get(), x, y) + " " + in + " " + out;
  if (OSRIsGeographic(srs.get()))
    throw Error(std::string("the terrain's coordinate reference system is geographic (") +
                (named ? name : "latitude and longitude") +
                "): its cells are degrees, and the solver needs metres. Reproject the DEM to a "
                "projected system first, such as its UTM zone (" +
                warp + ")");
  // Refused rather than converted: the run's coordinates are the terrain's (the gauges, point
  // sources and stretches given, the .vti's origin, the GeoTIFF maps written in its system),
  // which would then be in feet here and metres there; and a DEM seldom says what unit its
  // elevations are in, so scaling the cells alone would leave its slopes 3.3 times too steep.
  char* unitName = nullptr;
  const double metres = OSRGetLinearUnits(srs.get(), &unitName);
  if (std::fabs(metres - 1) < 1e-9 || !(metres > 0))
    return;
  std::ostringstream factor;
  factor << std::setprecision(10) << metres;
  const std::string unit = unitName && *unitName ? unitName : "unknown unit";
  throw Error("the terrain's coordinate reference system" +
              (named ? " (" + std::string(name) + ")" : std::string()) + " counts in units of " +
              unit + " (" + factor.str() +
              " m), and the solver takes cell sizes, coordinates and elevations in metres. "
              "Reproject the DEM to a system in metres first, such as its UTM zone (" +
              warp + "), then scale its elevations if they are in that unit too (gdal_calc.py -A " +
              out + " --calc=\"A*" + factor.str() + "\" --outfile " + stem + "_metres.tif)");
}

void checkRasterFile(const std::string& file)
{
  GdalErrors errors;
  GDALAllRegister();
  const Dataset dataset(GDALOpen(file.c_str(), GA_ReadOnly), GDALClose);
  if (!dataset)
    throw Error("cannot read '" + file +
                "' as a VTK XML image (.vti) or a raster GDAL reads (GeoTIFF, ESRI ASCII grid): " +
                errors.reason("GDAL cannot open it"));
  const int nx = GDALGetRasterXSize(dataset.get()), ny = GDALGetRasterYSize(dataset.get());
  if (GDALGetRasterCount(dataset.get()) < 1 || nx < 1 || ny < 1)
    throw Error("'" + file + "' holds no raster band (no cells)");
  GDALDriverH driver = GDALGetDatasetDriver(dataset.get());
  if (driver && std::string(GDALGetDriverShortName(driver)) == "AAIGrid")
    checkAsciiGridValues(file, nx, ny);
  readEveryBand(dataset.get(), file, errors);
  double transform[6];
  checkGeotransform(dataset.get(), file, transform);
  const char* wkt = GDALGetProjectionRef(dataset.get());
  requireMetreCrs(wkt ? wkt : "",
    transform[0] + transform[1] * nx / 2,
    transform[3] + transform[5] * ny / 2,
    file);
}
} // namespace swe
