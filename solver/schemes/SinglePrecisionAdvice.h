#pragma once
// fp32 keeps a depth d to about d / 2^24: a step's loss below half of that is lost on such
// water, and one of a few of its last digits is rounded the same way every step; so is rain in
// Lax-Friedrichs (the second-order schemes round it at random, kept on average: NUMERICS.md,
// Precision). A run in Single precision is told before it starts.
#include "InitialState.h"
#include "Parameters.h"
#include "RankExchange.h"

#include <string>

namespace swe
{
// For a Single-precision run whose rain (Lax-Friedrichs), losses or Green-Ampt conductivity a step
// (at the dt the initial state gives) fp32 can round by 10 % or more on the deepest water it starts
// with: what each amounts to a step, the depths past which it is rounded so or lost, and the fix.
// Empty otherwise (Double, no such sources, shallow enough water). In a run split among ranks
// (ranks given; initial is this rank's block) it is collective: from the largest over the ranks'
// blocks, the same on every rank.
std::string singlePrecisionSourceWarning(const SimulationParameters& params,
  const InitialState& initial,
  RankExchange* ranks = nullptr);
} // namespace swe
