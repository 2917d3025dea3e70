#pragma once
// swe bench --skip-dry on: what skipping dry land gains against the same steps without it (the
// DRY line), and the benchmark's initial states with dry land.
#include "InitialState.h"
#include "Parameters.h"

#include <string>

namespace swe::cli
{
// The benchmark's initial state: the scenario named, or, with wetFraction > 0, still water 1 m
// deep over the first wetFraction of the grid along x and dry flat land beyond.
InitialState benchInitialState(const SimulationParameters& params,
  const std::string& scenario,
  double wetFraction);

// Times `steps` steps (after a warm-up) from `initial` with skipping off and on, twice each,
// alternating, and prints the DRY line: the wet share of the cells and the share of the tiles
// updated at the end, the rates, the speed-up and whether both runs' bits agree.
int benchSkipDry(SimulationParameters params, const InitialState& initial, int steps);
} // namespace swe::cli
