#pragma once
// What swe ensemble writes into --out: the statistics at every output time as a .vti series
// (ensemble.pvd, with VTK), the members' parameters and outcomes (members.csv) and, with
// --geotiff, the last statistics as GeoTIFF files. Every file is written whole under a temporary
// name, then renamed.
#include "Ensemble.h"
#include "EnsembleMembers.h"

#include <array>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace swe::cli
{
class EnsembleOutput
{
public:
  // Nothing is written where directory is empty. bed: the terrain under the statistics (nx * ny
  // values; empty: none). reports: this process writes the statistics and members.csv (rank 0);
  // every rank writes the frames of the members it runs.
  EnsembleOutput(std::string directory,
    const std::array<double, 3>& origin,
    double dx,
    std::vector<double> bed,
    bool reports);
  ~EnsembleOutput();
  // The statistics now, the next file of the series.
  void write(const EnsembleStatistics& statistics);
  // members.csv: a row a member, its varied values, whether it ran to the end, its time, steps,
  // the balance's relative error (where kept) and what stopped it.
  void writeMembers(const Ensemble& ensemble, const MemberTable& table, bool balance) const;
  // NAME.tif a map, placed at origin in crs.
  void writeGeoTiffs(const EnsembleStatistics& statistics, const std::string& crs) const;
  std::string seriesPath() const { return directory_ + "/ensemble.pvd"; }

  // Members whose own frames are kept (--member-frames, 1-based, members of the ensemble): each
  // as a run's series, member_N/swe.pvd in the directory, its folder held and checked as --out
  // is (overwrite). A member on another rank is that rank's to write.
  void keepMemberFrames(const std::vector<int>& members, const Ensemble& ensemble, bool overwrite);
  // The kept members' frames now (those still running on this rank).
  void writeMemberFrames(Ensemble& ensemble);

private:
  struct KeptMember;
  std::vector<std::unique_ptr<KeptMember>> kept_;
  std::string directory_;
  bool reports_;
  std::array<double, 3> origin_;
  double dx_;
  std::vector<double> bed_;
  std::vector<std::pair<double, std::string>> files_;
};
} // namespace swe::cli
