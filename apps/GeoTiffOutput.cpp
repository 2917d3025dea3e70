#include "GeoTiffOutput.h"

#include "FrameArraySelection.h"
#include "GeoTiff.h"
#include "LaunchedRanks.h"

#include <algorithm>
#include <iostream>

namespace swe::cli
{
void writeGeoTiffs(const Simulation& simulation,
  const std::string& outDir,
  const std::array<double, 3>& origin,
  const std::string& crs)
{
  const SimulationParameters& p = simulation.parameters();
  GeoRaster raster;
  raster.nx = p.nx;
  raster.ny = p.ny;
  raster.dx = p.dx;
  raster.origin = { origin[0], origin[1] };
  raster.crs = crs;
  const std::size_t cells = static_cast<std::size_t>(p.nx) * p.ny;
  std::vector<double> depth(cells), bed(cells);
  simulation.download(Field::Depth, depth.data());
  simulation.download(Field::Bed, bed.data());
  // (closed cells, NaN terrain, are no data in every file)
  const auto write = [&](const std::string& name, std::vector<double> values)
  {
    for (std::size_t k = 0; k < cells; ++k)
      values[k] = bed[k] == bed[k] ? values[k] : bed[k];
    writeGeoTiff(outDir + "/" + name + ".tif",
      raster,
      { { name, std::move(values) } },
      p.precision == Precision::Double);
  };
  std::vector<double> surface(cells);
  std::transform(depth.begin(), depth.end(), bed.begin(), surface.begin(), std::plus<>());
  write(fieldName(Field::Depth), std::move(depth));
  write(kFrameArrayNames[static_cast<int>(FrameArray::FreeSurface)], std::move(surface));
  const std::vector<Field> kept = stateFields(p);
  for (int k = 0; k < kKeptArrayCount; ++k)
    if (std::find(kept.begin(), kept.end(), keptField(k)) != kept.end())
    {
      std::vector<double> values(cells);
      simulation.download(keptField(k), values.data());
      write(fieldName(keptField(k)), std::move(values));
    }
  if (printsReports())
    std::cerr << "swe: wrote the end state as GeoTIFF into " << outDir
              << (crs.empty() ? " (no coordinate reference system: give --crs)" : "") << "\n";
}
} // namespace swe::cli
