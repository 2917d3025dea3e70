// Rain per cell (SimulationParameters::rainPerCell, InitialState::rain): a factor of 1 everywhere
// gives the uniform rain's bits; a field of factors brings its own volume, follows the twin and
// closes the water balance; what it cannot do is refused by name.
#include "Error.h"
#include "Simulation.h"
#include "TestHelpers.h"
#include "WaterBalance.h"

#include <gtest/gtest.h>

#include <cmath>

namespace swe::test
{
namespace
{
constexpr Scheme kSecondOrder[] = { Scheme::MusclHllc, Scheme::MusclHancock };

// The rain basin (TestHelpers.h) under 360 mm/h.
SimulationParameters basin(Scheme scheme)
{
  SimulationParameters p = rainBasin(scheme);
  p.rainfall = 360;
  return p;
}

InitialState lake(const SimulationParameters& p)
{
  InitialState s = stillWater(p, 0.5);
  return s;
}

TEST(RainArray, FactorsOfOneGiveTheUniformRainsBits)
{
  for (Scheme scheme : kSecondOrder)
  {
    const SimulationParameters uniform = basin(scheme);
    SimulationParameters perCell = uniform;
    perCell.rainPerCell = true;
    InitialState s = lake(uniform);
    Simulation plain(uniform, s);
    s.rain.assign(s.cells(), 1.0);
    Simulation fielded(perCell, s);
    plain.advanceTo(5.0);
    fielded.advanceTo(5.0);
    EXPECT_EQ(maxRelativeDifference(download(plain), download(fielded)), 0.0) << schemeName(scheme);
  }
}

TEST(RainArray, AFieldBringsItsVolumeAndFollowsTheTwin)
{
  // (the CPU-shaped kernels and the GPU sweeps, whichever device runs the tests)
  for (Scheme scheme : kSecondOrder)
    for (const char* launch : { "rows4", "16x1x4" })
    {
      SimulationParameters p = basin(scheme);
      p.launch = launch;
      p.rainPerCell = true;
      p.waterBalance = true;
      InitialState s = lake(p);
      s.rain.resize(s.cells());
      for (int j = 0; j < p.ny; ++j)
        for (int i = 0; i < p.nx; ++i)
          s.rain[s.index(i, j)] = i < p.nx / 2 ? 0.0 : 2.0 + 0.1 * j; // a storm over the east half
      EXPECT_LE(twinDifferenceAfter<double>(p, s, 100), 1e-10) << schemeName(scheme);
      Simulation sim(p, s);
      const double initial = closingInitialVolume(sim.downloadState(), p, s.rainedCells());
      sim.advanceTo(10.0);
      const WaterBalance b = waterBalanceOf(sim.downloadState(), p, initial, s.rainedCells());
      // 360 mm/h for 10 s is 1 mm on a factor of 1.
      EXPECT_NEAR(b.rain, 1e-3 * s.rainedCells()[0], 1e-12) << schemeName(scheme);
      EXPECT_NEAR(b.stored, b.initial + b.rain, 1e-12 * b.stored) << schemeName(scheme);
      EXPECT_LE(std::fabs(b.relativeError()), 1e-12) << schemeName(scheme);
    }
}

TEST(RainArray, ItsRefusalsNameWhatIsMissing)
{
  SimulationParameters p = basin(Scheme::MusclHancock);
  p.rainPerCell = true;
  p.rainfall = 0;
  expectRefused(p, "scales Rainfall or the Rainfall Series: set one");
  p = basin(Scheme::LaxFriedrichs);
  p.rainPerCell = true;
  expectRefused(p, "rain per cell (Rainfall Array) needs MUSCL-Hancock or MUSCL-HLLC");
  p = basin(Scheme::MusclHancock);
  p.rainPerCell = true;
  InitialState s = lake(p);
  const auto refused = [&](const InitialState& state, const std::string& expected)
  {
    try
    {
      Simulation sim(p, state);
      ADD_FAILURE() << "not refused: " << expected;
    }
    catch (const Error& e)
    {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  };
  refused(s, "the run rains per cell, but its initial state has no rain factors");
  s.rain.assign(s.cells(), 1.0);
  s.rain[s.index(3, 4)] = -1;
  refused(s, "the rain's factor must be a finite number >= 0, got -1 at cell (3, 4)");
}
} // namespace
} // namespace swe::test
