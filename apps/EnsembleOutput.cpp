#include "EnsembleOutput.h"

#include "AtomicFile.h"
#include "Simulation.h"
#ifdef SWE_WITH_VTK
#include "EnsembleImage.h"
#include "GeoTiff.h"
#include "VtiSeriesWriter.h"

#include <vtkImageData.h>
#include <vtkNew.h>
#endif

#include <charconv>
#include <cstdio>
#include <sstream>

namespace swe::cli
{
EnsembleOutput::EnsembleOutput(std::string directory,
  const std::array<double, 3>& origin,
  double dx,
  std::vector<double> bed)
  : directory_(std::move(directory))
  , origin_(origin)
  , dx_(dx)
  , bed_(std::move(bed))
{
}

void EnsembleOutput::write([[maybe_unused]] const EnsembleStatistics& statistics)
{
#ifdef SWE_WITH_VTK
  if (directory_.empty())
    return;
  char name[64];
  std::snprintf(name, sizeof(name), "ensemble_%05zu.vti", files_.size());
  vtkNew<vtkImageData> image;
  fillEnsembleImage(image, statistics, origin_, dx_, bed_);
  writeFileAtomically(directory_ + "/" + name, xmlImage(image));
  files_.emplace_back(statistics.time, name);
  writeFileAtomically(seriesPath(), pvdCollection(files_));
#endif
}

namespace
{
std::string memberRowsCsv(const Ensemble& ensemble, const MemberTable& table, bool balance)
{
  // (the shortest text that reads back as the same double: 0.03, not 0.029999999999999999)
  const auto number = [](double value)
  {
    char text[32];
    const auto end = std::to_chars(text, text + sizeof(text), value).ptr;
    return std::string(text, end);
  };
  std::ostringstream csv;
  csv << "member";
  for (Varied column : table.columns)
    csv << "," << variedName(column);
  csv << ",status,time,steps" << (balance ? ",balance_relative_error" : "") << ",failure\n";
  for (int m = 0; m < ensemble.members(); ++m)
  {
    const MemberState& state = ensemble.state(m);
    csv << m + 1;
    for (double value : table.rows[m])
      csv << "," << number(value);
    csv << "," << (state.failed ? "failed" : "ran") << "," << number(state.time) << ","
        << state.steps;
    if (balance)
      csv << "," << number(state.balance.relativeError());
    // (the engine's message in quotes, its own quotes doubled, as spreadsheets read them)
    std::string failure = state.failure;
    for (std::size_t at = failure.find('"'); at != std::string::npos;
         at = failure.find('"', at + 2))
      failure.insert(at, 1, '"');
    csv << ",\"" << failure << "\"\n";
  }
  return csv.str();
}
} // namespace

void EnsembleOutput::writeMembers(const Ensemble& ensemble,
  const MemberTable& table,
  bool balance) const
{
  if (!directory_.empty())
    writeFileAtomically(directory_ + "/members.csv", memberRowsCsv(ensemble, table, balance));
}

void EnsembleOutput::writeGeoTiffs([[maybe_unused]] const EnsembleStatistics& statistics,
  [[maybe_unused]] const std::string& crs) const
{
#ifdef SWE_WITH_VTK
  GeoRaster raster;
  raster.nx = statistics.nx;
  raster.ny = statistics.ny;
  raster.dx = dx_;
  raster.origin = { origin_[0], origin_[1] };
  raster.crs = crs;
  for (int m = 0; m < kEnsembleMapCount; ++m)
  {
    const std::string name = ensembleMapName(EnsembleMap(m));
    writeGeoTiff(directory_ + "/" + name + ".tif",
      raster,
      { { name, std::vector<double>(statistics.maps[m].begin(), statistics.maps[m].end()) } });
  }
#endif
}
} // namespace swe::cli
