#include "LocalDatum.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace swe
{
namespace
{
// The highest a level side (its constant, or its series' highest) stands above the initial
// surface (the bed, where dry) of the open cells along its stretch, in this block's part of the
// grid's sides; 0 for none.
double levelAboveSideCells(const SimulationParameters& params, const InitialState& initial)
{
  const std::array<bool, 4> inside = params.haloSides();
  double highest = 0;
  for (int side = 0; side < 4; ++side)
  {
    const Boundary& b = params.boundaries[side];
    if (b.type != BoundaryType::FixedLevel || inside[side])
      continue;
    double level = b.series.empty() ? b.value : -std::numeric_limits<double>::infinity();
    for (const std::array<double, 2>& point : b.series)
      level = std::max(level, point[1]);
    // (the stretch's cells, in this block's numbering, as the kernels' BCR_ defines)
    const std::array<int, 2> stretch = blockStretchCells(params, side);
    for (int k = stretch[0]; k < stretch[1]; ++k)
    {
      const auto [i, j] = sideCell(side, k, initial.nx, initial.ny);
      const std::size_t c = static_cast<std::size_t>(j) * initial.nx + i;
      const double bed = initial.bed.empty() ? 0.0 : initial.bed[c];
      if (bed == bed) // (not a closed cell)
        highest = std::max(highest, level - (bed + initial.h[c]));
    }
  }
  return highest;
}
} // namespace

double levelWaveSpeed(const SimulationParameters& params, const InitialState& block)
{
  return std::sqrt(params.gravity * levelAboveSideCells(params, block));
}

double waveSpeedFloor(const SimulationParameters& params, const LocalDatum& local)
{
  return std::max(inflowWaveSpeed(params), local.levelWaveSpeed);
}

LocalDatum localDatum(const SimulationParameters& params,
  const InitialState& initial,
  RankExchange* ranks)
{
  LocalDatum local;
  local.levelWaveSpeed = levelWaveSpeed(params, initial);
  if (ranks)
    ranks->maxOverRanks(&local.levelWaveSpeed, 1);
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
  // exactly, with no round-off to damp, and the step kernels skip the films' test (see
  // PERFORMANCE.md, 'Decisions that stand').
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
