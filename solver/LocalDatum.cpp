#include "LocalDatum.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace swe
{
LocalDatum localDatum(const SimulationParameters& params,
  const InitialState& initial,
  RankExchange* ranks)
{
  LocalDatum local;
  if (initial.bed.empty())
    return local;
  // A whole number of metres at or below every bed elevation (at or above, for a bed all below
  // zero; zero for one on both sides): then b - datum is exact in fp64, and the outputs' bed,
  // (b - datum) + datum, is the input's to the bit.
  // (closed cells, NaN, have no elevation: their bed is kClosedBed above the datum)
  double extremes[2] = { -std::numeric_limits<double>::infinity(),
    -std::numeric_limits<double>::infinity() }; // (the lowest negated: maxima over ranks)
  for (double b : initial.bed)
    if (b == b)
    {
      extremes[0] = std::max(extremes[0], -b);
      extremes[1] = std::max(extremes[1], b);
    }
  if (ranks)
    ranks->maxOverRanks(extremes, 2);
  const double lowest = -extremes[0], highestBed = extremes[1];
  // A flat bed is all zero above itself: the hydrostatic reconstruction's eta - b is then h
  // exactly, with no round-off to damp, and the step kernels skip the films' test (1.7 % of
  // MUSCL-Hancock fp32 on the dam break, H100).
  if (lowest == highestBed)
  {
    local.datum = lowest;
    return local;
  }
  if (lowest > 0)
    local.datum = std::floor(lowest);
  else if (highestBed < 0)
    local.datum = std::ceil(highestBed);
  double highest = 0; // the largest |elevation - datum| the device holds
  for (std::size_t k = 0; k < initial.bed.size(); ++k)
    if (!initial.closed(k))
      highest = std::max(highest, std::fabs(initial.bed[k] - local.datum) + initial.h[k]);
  if (ranks)
    ranks->maxOverRanks(&highest, 1);
  for (const Boundary& side : params.boundaries)
    if (side.type == BoundaryType::FixedLevel)
      highest = std::max(highest, std::fabs(side.value - local.datum));
  const double epsilon = params.precision == Precision::Double
                           ? std::numeric_limits<double>::epsilon()
                           : std::numeric_limits<float>::epsilon();
  const double film = 16 * epsilon * highest;
  local.filmDepth = film > kDryDepth ? film : 0.0;
  return local;
}
} // namespace swe
