#include "EnsembleStatistics.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace swe
{
const char* ensembleMapName(EnsembleMap map)
{
  constexpr const char* names[kEnsembleMapCount] = { "ProbabilityFlooded",
    "MaxDepthMean",
    "MaxDepthP10",
    "MaxDepthP50",
    "MaxDepthP90",
    "ArrivalTimeEarliest",
    "ArrivalTimeMedian" };
  return names[static_cast<int>(map)];
}

const char* ensembleMapUnit(EnsembleMap map)
{
  constexpr const char* units[kEnsembleMapCount] = { "1", "m", "m", "m", "m", "s", "s" };
  return units[static_cast<int>(map)];
}

double sortedQuantile(const float* sorted, int n, double q)
{
  const double position = q * (n - 1);
  const int below = static_cast<int>(std::floor(position));
  const int above = std::min(below + 1, n - 1);
  const double weight = position - below;
  // (an infinite neighbour is taken whole, not weighted: inf * 0 would give NaN)
  if (weight == 0 || sorted[below] == sorted[above])
    return sorted[below];
  return sorted[below] + weight * (static_cast<double>(sorted[above]) - sorted[below]);
}

EnsembleFold::EnsembleFold(int nx, int ny)
  : nx_(nx)
  , ny_(ny)
{
}

void EnsembleFold::add(const double* maxDepth, const double* arrivalTime)
{
  const std::size_t cells = static_cast<std::size_t>(nx_) * ny_;
  depths_.insert(depths_.end(), maxDepth, maxDepth + cells);
  arrivals_.insert(arrivals_.end(), arrivalTime, arrivalTime + cells);
  ++members_;
}

void EnsembleFold::add(const float* maxDepth, const float* arrivalTime)
{
  const std::size_t cells = static_cast<std::size_t>(nx_) * ny_;
  depths_.insert(depths_.end(), maxDepth, maxDepth + cells);
  arrivals_.insert(arrivals_.end(), arrivalTime, arrivalTime + cells);
  ++members_;
}

EnsembleStatistics EnsembleFold::fold(double time) const
{
  const std::size_t cells = static_cast<std::size_t>(nx_) * ny_;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float never = std::numeric_limits<float>::infinity();
  EnsembleStatistics s;
  s.nx = nx_;
  s.ny = ny_;
  s.time = time;
  s.members = members_;
  for (auto& map : s.maps)
    map.assign(cells, nan);
  std::vector<float> depths(members_), arrivals(members_);
  for (std::size_t k = 0; k < cells && members_ > 0; ++k)
  {
    double sum = 0;
    int arrived = 0;
    for (int m = 0; m < members_; ++m)
    {
      depths[m] = depths_[m * cells + k];
      const float arrival = arrivals_[m * cells + k];
      arrivals[m] = std::isnan(arrival) ? never : arrival;
      sum += depths[m];
      arrived += std::isnan(arrival) ? 0 : 1;
    }
    std::sort(depths.begin(), depths.end());
    std::sort(arrivals.begin(), arrivals.end());
    const auto set = [&](EnsembleMap map, double value)
    { s.maps[static_cast<int>(map)][k] = std::isinf(value) ? nan : static_cast<float>(value); };
    set(EnsembleMap::ProbabilityFlooded, static_cast<double>(arrived) / members_);
    set(EnsembleMap::MaxDepthMean, sum / members_);
    set(EnsembleMap::MaxDepthP10, sortedQuantile(depths.data(), members_, 0.1));
    set(EnsembleMap::MaxDepthP50, sortedQuantile(depths.data(), members_, 0.5));
    set(EnsembleMap::MaxDepthP90, sortedQuantile(depths.data(), members_, 0.9));
    set(EnsembleMap::ArrivalTimeEarliest, arrivals.front());
    set(EnsembleMap::ArrivalTimeMedian, sortedQuantile(arrivals.data(), members_, 0.5));
  }
  return s;
}
} // namespace swe
