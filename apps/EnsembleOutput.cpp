#include "EnsembleOutput.h"

#include "AtomicFile.h"
#include "Error.h"
#include "Simulation.h"
#ifdef SWE_WITH_VTK
#include "EnsembleImage.h"
#include "GeoTiff.h"
#include "OutputFolder.h"
#include "VtiSeriesWriter.h"

#include <vtkImageData.h>
#include <vtkNew.h>
#endif

#include <charconv>
#include <cstdio>
#include <sstream>

namespace swe::cli
{
struct EnsembleOutput::KeptMember
{
  int member = 0; // 0-based
#ifdef SWE_WITH_VTK
  std::unique_ptr<OutputFolder> folder;
  std::unique_ptr<VtiSeriesWriter> series;
#endif
};

EnsembleOutput::EnsembleOutput(std::string directory,
  const std::array<double, 3>& origin,
  double dx,
  std::vector<double> bed,
  bool reports)
  : directory_(std::move(directory))
  , reports_(reports)
  , origin_(origin)
  , dx_(dx)
  , bed_(std::move(bed))
{
}

EnsembleOutput::~EnsembleOutput() = default;

void EnsembleOutput::write([[maybe_unused]] const EnsembleStatistics& statistics)
{
#ifdef SWE_WITH_VTK
  if (directory_.empty() || !reports_)
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
  if (!directory_.empty() && reports_)
    writeFileAtomically(directory_ + "/members.csv", memberRowsCsv(ensemble, table, balance));
}

void EnsembleOutput::keepMemberFrames([[maybe_unused]] const std::vector<int>& members,
  [[maybe_unused]] const Ensemble& ensemble,
  [[maybe_unused]] bool overwrite)
{
#ifdef SWE_WITH_VTK
  for (int number : members)
  {
    if (!ensemble.member(number - 1))
      continue; // (another rank's)
    auto kept = std::make_unique<KeptMember>();
    kept->member = number - 1;
    const std::string folder = directory_ + "/member_" + std::to_string(number);
    kept->folder = std::make_unique<OutputFolder>(folder, overwrite, false);
    kept->series = std::make_unique<VtiSeriesWriter>(folder, "swe", origin_);
    kept_.push_back(std::move(kept));
  }
#endif
}

void EnsembleOutput::writeMemberFrames([[maybe_unused]] Ensemble& ensemble)
{
#ifdef SWE_WITH_VTK
  for (const auto& kept : kept_)
    if (Simulation* member = ensemble.member(kept->member))
      kept->series->write(*member, member->time());
#endif
}

void EnsembleOutput::writeGeoTiffs([[maybe_unused]] const EnsembleStatistics& statistics,
  [[maybe_unused]] const std::string& crs) const
{
#ifdef SWE_WITH_VTK
  if (!reports_)
    return;
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
