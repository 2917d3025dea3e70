#pragma once
// fp32 keeps a depth d to about d / 2^24: a step's rain or loss below half of that is lost on
// such water, and one of a few of its last digits is rounded the same way every step
// (NUMERICS.md, Precision). A run in Single precision is told before it starts.
#include "InitialState.h"
#include "Parameters.h"
#include "RankExchange.h"

#include <string>

namespace swe
{
// What the warning needs of an initial state, each the largest over its cells (so a split run's
// ranks agree on them by their maxima): the depth, the wave speed |u| + sqrt(g h) (or a level
// side's, LocalDatum::levelWaveSpeed), the rain's factor (1 without per-cell factors) and
// Green-Ampt's conductivity [mm/h] (the soil map's, or the uniform value).
struct SourceScales
{
  double deepest = 0, waveSpeed = 0, rainFactor = 1, conductivity = 0;
};
SourceScales sourceScales(const SimulationParameters& params, const InitialState& initial);

// For a Single-precision run whose rain, losses or Green-Ampt conductivity a step (at the dt
// the initial state gives) fp32 can round by 10 % or more on the deepest water it starts with:
// what each amounts to a step, the depths past which it is rounded so or lost, and the fix. Empty
// otherwise (Double, no such sources, shallow enough water).
std::string singlePrecisionSourceWarning(const SimulationParameters& params,
  const SourceScales& scales);
std::string singlePrecisionSourceWarning(const SimulationParameters& params,
  const InitialState& initial);
// The same for a run split among ranks, each holding its block's initial state (collective):
// from the scales' maxima over the ranks, on every rank.
std::string singlePrecisionSourceWarning(const SimulationParameters& params,
  const InitialState& block,
  RankExchange& ranks);
} // namespace swe
