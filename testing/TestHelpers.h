#pragma once
// Shared set-up for the engine tests: small grids on the default device (PoCL in CI).
#include "InitialState.h"
#include "Parameters.h"
#include "ReferenceSolver.h"
#include "Simulation.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace swe::test
{
// A small, deliberately non-square grid whose sizes are not multiples of the work-group shape.
SimulationParameters smallParameters(Precision precision, int nx = 50, int ny = 37);
// A closed flat basin of 30 x 22 cells of 1 m in fp64, for the rain tests.
SimulationParameters rainBasin(Scheme scheme);

struct Fields
{
  std::vector<double> h, hu, hv;
};
Fields download(const Simulation& simulation);

// Largest |a - b| / max(|b|, floor) over all cells of all three fields.
double maxRelativeDifference(const Fields& a, const Fields& b, double floor = 1.0);

// The twin's interior fields, in the device's order.
template<class Real>
Fields twinFields(const ReferenceSolver<Real>& twin, int nx, int ny)
{
  Fields f;
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i)
    {
      f.h.push_back(twin.h(i, j));
      f.hu.push_back(twin.hu(i, j));
      f.hv.push_back(twin.hv(i, j));
    }
  return f;
}

// Runs the device and the C++ twin the same number of steps from the same state; returns the
// largest relative difference of their fields.
template<class Real>
double twinDifferenceAfter(const SimulationParameters& p, const InitialState& initial, int steps)
{
  Simulation device(p, initial);
  ReferenceSolver<Real> twin(p, initial);
  twin.takeStepsInPairs(device.launchShape().steps == 2); // as the launch the device resolved
  device.step(steps);
  twin.takeSteps(steps);
  if (device.steps() != steps)
    return std::numeric_limits<double>::infinity();
  return maxRelativeDifference(download(device), twinFields(twin, p.nx, p.ny));
}

// A rough state on a 12 x 12 grid of 0.1 m cells: random beds up to a height `relief`, depths up
// to 1 m with a share `wet` of cells wet (the others dry), and momenta of speeds up to `speed`
// in any direction, all drawn from one fixed generator (so that every compiler builds the same
// state): a stress test for wet/dry fronts.
InitialState roughState(std::uint64_t seed);

// roughState(seed) placed in a dry grid of p's size with its first cell at (i0, j0).
InitialState roughPatch(const SimulationParameters& p, std::uint64_t seed, int i0, int j0);

// Expects params.validate() to throw swe::Error with `expected` in its message.
void expectRefused(const SimulationParameters& params, const std::string& expected);

// Water at rest on the flat bed of p's grid, `depth` deep everywhere.
InitialState stillWater(const SimulationParameters& p, double depth);

// Water with its surface at `level` over the terrain bed(i, j) on the grid of p, dry where the
// terrain stands above it: wet and dry cells side by side.
template<class Bed>
InitialState waterOverTerrain(const SimulationParameters& p, double level, Bed bed)
{
  InitialState s(p.nx, p.ny);
  for (int j = 0; j < p.ny; ++j)
    for (int i = 0; i < p.nx; ++i)
    {
      const std::size_t c = s.index(i, j);
      s.bed[c] = bed(i, j);
      s.h[c] = std::max(0.0, level - s.bed[c]);
    }
  return s;
}

// A hill that stands out of a lake on the grid of p: a Gaussian bump 0.5 m high over a fifth of
// the grid, under water 0.3 m deep (its top dry).
InitialState hillInALake(const SimulationParameters& p);

// Largest asymmetries of an n x n state: under x <-> y (which swaps the momenta) and under
// x -> -x (which negates hu).
struct Symmetry
{
  double transpose = 0;
  double mirror = 0;
};
Symmetry symmetryErrors(const Fields& f, int n);
} // namespace swe::test
