#pragma once
// Shared set-up for the engine tests: small grids on the default device (PoCL in CI).
#include "InitialState.h"
#include "Parameters.h"
#include "Simulation.h"

#include <vector>

namespace swe::test
{
// A small, deliberately non-square grid whose sizes are not multiples of the work-group shape.
SimulationParameters smallParameters(Precision precision, int nx = 50, int ny = 37);

struct Fields
{
  std::vector<double> h, hu, hv;
};
Fields download(const Simulation& simulation);

// Largest |a - b| / max(|b|, floor) over all cells of all three fields.
double maxRelativeDifference(const Fields& a, const Fields& b, double floor = 1.0);
} // namespace swe::test
