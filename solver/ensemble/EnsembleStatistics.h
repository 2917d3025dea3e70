#pragma once
// What an ensemble's members' flood maps say together, cell by cell: how likely a cell is to
// flood, how deep it gets, and when the water comes. Quantiles interpolate linearly between the
// members' sorted values (numpy's default: position q (n - 1)).
#include <string>
#include <vector>

namespace swe
{
enum class EnsembleMap
{
  ProbabilityFlooded,  // the share of members whose water reached the arrival depth [-]
  MaxDepthMean,        // the mean over the members of the largest depth [m]
  MaxDepthP10,         // its 10 % quantile [m]
  MaxDepthP50,         // its median [m]
  MaxDepthP90,         // its 90 % quantile [m]
  ArrivalTimeEarliest, // the earliest arrival over the members [s]; NaN where none arrived
  ArrivalTimeMedian    // the median arrival, a member that never arrives counted as arriving
                       // last; NaN where half the members or more never arrive [s]
};
constexpr int kEnsembleMapCount = 7;

// The name of a map in outputs (.vti arrays, GeoTIFF files): its enumerator's.
const char* ensembleMapName(EnsembleMap map);
// Its unit as outputs label it ("1" for a share).
const char* ensembleMapUnit(EnsembleMap map);

struct EnsembleStatistics
{
  int nx = 0, ny = 0;
  double time = 0;                            // the simulated time of the maps [s]
  int members = 0;                            // the members they hold (those still running)
  std::vector<float> maps[kEnsembleMapCount]; // nx * ny values each, row-major, x fastest
  const std::vector<float>& map(EnsembleMap which) const { return maps[static_cast<int>(which)]; }
};

// Gathers the members' largest depth and arrival time, then folds them.
class EnsembleFold
{
public:
  EnsembleFold(int nx, int ny);
  // One member's maps, nx * ny values each (Field::MaxDepth, Field::ArrivalTime).
  void add(const double* maxDepth, const double* arrivalTime);
  void add(const float* maxDepth, const float* arrivalTime);
  int members() const { return members_; }
  // The statistics over the members added; NaN in every map where none was.
  EnsembleStatistics fold(double time) const;

private:
  int nx_, ny_, members_ = 0;
  std::vector<float> depths_, arrivals_; // member after member, nx * ny each
};

// The q-quantile (q in [0, 1]) of n sorted values by linear interpolation.
double sortedQuantile(const float* sorted, int n, double q);
} // namespace swe
