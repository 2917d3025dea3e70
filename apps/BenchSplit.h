#pragma once
// swe bench --ranks (BenchSplit.cpp) and what it shares with the one-rank benchmark.
#include "Parameters.h"
#include "Simulation.h"

namespace swe::cli
{
// The steps before the timed ones: first launches (PoCL compiles each kernel for its work-group
// size then; GPU drivers load the code).
int warmupSteps(int steps);
// Takes the warm-up steps, then times `steps` more: the rate over simulation's whole grid
// [cells/s].
double timedStepRate(Simulation& simulation, int steps);
// The grid of params split among `ranks` threads as ranks: one block alone, then the split run,
// each `steps` steps after a warm-up (SPLIT lines); with checkBits, the BITS line.
int benchSplit(const SimulationParameters& params, int ranks, int steps, bool checkBits);
} // namespace swe::cli
