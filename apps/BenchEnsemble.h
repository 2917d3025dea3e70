#pragma once
// swe bench --members N: an ensemble's members stepped side by side (Ensemble.h) against the same
// cells as one grid, both keeping flood maps as members do: the ENSEMBLE line.
#include "Parameters.h"

#include <string>

namespace swe::cli
{
// Times `members` runs of params (each its own Manning coefficient, so that they differ) over
// the time their first takes `steps` steps in, after a warm-up, against one grid of params.nx x
// (params.ny x members) cells taking `steps` steps; prints the ENSEMBLE line: the cells a second
// of each and their ratio.
int benchEnsemble(SimulationParameters params, const std::string& scenario, int members, int steps);
} // namespace swe::cli
