// Uniform rain and losses (SimulationParameters::rainfall, losses): on a closed flat basin the
// depth grows (or falls, never below zero) by rate times time and nothing moves; on terrain the
// device follows the C++ twin, dry cells included; a bad rate is refused with its value.
#include "Error.h"
#include "Simulation.h"
#include "Partition.h"
#include "SinglePrecisionAdvice.h"
#include "ThreadRanks.h"
#include "TestHelpers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <string>

namespace swe::test
{
namespace
{
// A closed basin of flat bed (walls on every side) under 360 mm/h (0.1 mm a second), from depth
// h0 everywhere.
SimulationParameters rainyBasin(Scheme scheme, Precision precision)
{
  SimulationParameters p = smallParameters(precision, 23, 17);
  p.scheme = scheme;
  p.launch = "default";
  p.rainfall = 360;
  return p;
}

InitialState flatLake(const SimulationParameters& p, double h0)
{
  InitialState s = stillWater(p, h0);
  return s;
}

struct BasinCase
{
  Scheme scheme;
  Precision precision;
  double h0; // the depth at t = 0 (0: dry, for the schemes with wet/dry)
  // On |h - (h0 + rate t)| [m] at t = 20 s: the round-off of adding a step's rain to the depth,
  // half an ulp of the depth a step rounded to nearest (fp32 at 1 m: 6e-8 m, over some 300
  // steps), a random walk of ulps rounded at random (the MUSCL schemes' fp32).
  double bound;
};

// Whether the case's depths are rounded at random (NUMERICS.md, Water balance): every cell then
// rounds its own way, so the water moves by round-off; rounded to nearest every cell is the same.
bool roundsAtRandom(const BasinCase& c)
{
  return c.precision == Precision::Single && isSecondOrder(c.scheme);
}

class RainOnAFlatBasin : public ::testing::TestWithParam<BasinCase>
{
};

TEST_P(RainOnAFlatBasin, RaisesTheDepthByRateTimesTimeAndMovesNothing)
{
  const BasinCase c = GetParam();
  const SimulationParameters p = rainyBasin(c.scheme, c.precision);
  Simulation sim(p, flatLake(p, c.h0));
  sim.advanceTo(20.0);
  const Fields f = download(sim);
  const double expected = c.h0 + 20.0 * p.rainfall / 3.6e6; // 2 mm
  // (rounded at random: still to 1e-6 m/s, and the mean depth to 3e-7 of the lake's, a few
  // standard deviations of its random walk)
  const double still = roundsAtRandom(c) ? 1e-6 * (c.h0 + expected) : 0.0;
  double sum = 0;
  for (std::size_t k = 0; k < f.h.size(); ++k)
  {
    ASSERT_LE(std::fabs(f.h[k] - expected), c.bound) << "cell " << k << ": " << f.h[k];
    if (!roundsAtRandom(c))
    {
      ASSERT_EQ(f.h[k], f.h[0]) << "cell " << k << ": the rain is not uniform";
    }
    ASSERT_LE(std::fabs(f.hu[k]), still) << "cell " << k;
    ASSERT_LE(std::fabs(f.hv[k]), still) << "cell " << k;
    sum += f.h[k];
  }
  if (roundsAtRandom(c))
  {
    EXPECT_NEAR(sum / static_cast<double>(f.h.size()), expected, 3e-7 * (c.h0 + expected));
  }
}

INSTANTIATE_TEST_SUITE_P(EveryScheme,
  RainOnAFlatBasin,
  ::testing::Values(BasinCase{ Scheme::LaxFriedrichs, Precision::Double, 1.0, 1e-13 },
    BasinCase{ Scheme::LaxFriedrichs, Precision::Single, 1.0, 3e-5 },
    BasinCase{ Scheme::MusclHllc, Precision::Double, 1.0, 1e-13 },
    BasinCase{ Scheme::MusclHllc, Precision::Double, 0.0, 1e-15 },
    BasinCase{ Scheme::MusclHancock, Precision::Double, 0.0, 1e-15 },
    BasinCase{ Scheme::MusclHancock, Precision::Single, 0.0, 1e-8 },
    BasinCase{ Scheme::MusclHancock, Precision::Single, 1.0, 2e-6 },
    BasinCase{ Scheme::MusclHllc, Precision::Single, 1.0, 2e-6 }),
  [](const ::testing::TestParamInfo<BasinCase>& info)
  {
    std::string name = schemeName(info.param.scheme) + "_" + precisionName(info.param.precision) +
                       (info.param.h0 > 0 ? "_wet" : "_dry");
    for (char& ch : name)
      ch = ch == '-' ? '_' : ch;
    return name;
  });

TEST(Rain, SecondOrderSchemesMatchTheTwinOnTerrainWithDryCells)
{
  for (Scheme scheme : { Scheme::MusclHllc, Scheme::MusclHancock })
  {
    SimulationParameters p = smallParameters(Precision::Double);
    p.scheme = scheme;
    p.rainfall = 200;
    p.manning = 0.03;
    p.boundaries[static_cast<int>(Side::East)] = { BoundaryType::Open, 0.0 };
    const InitialState initial = hillInALake(p);
    EXPECT_LE(twinDifferenceAfter<double>(p, initial, 100), 1e-10) << schemeName(scheme);
    // The hill's dry top gets wet.
    Simulation sim(p, initial);
    sim.step(100);
    const Fields f = download(sim);
    const std::size_t top = initial.index(p.nx / 2, p.ny / 2);
    EXPECT_EQ(initial.h[top], 0.0);
    EXPECT_GT(f.h[top], 0.0) << schemeName(scheme);
  }
}

TEST(Rain, LaxFriedrichsMatchesTheTwin)
{
  SimulationParameters p = smallParameters(Precision::Double);
  p.rainfall = 100;
  p.manning = 0.03;
  EXPECT_LE(twinDifferenceAfter<double>(p, makeScenario(Scenario::RadialDamBreak, p), 100), 1e-12);
}

TEST(Rain, NegativeOrExcessiveRatesAreRefusedWithTheValue)
{
  for (double rate : { -1.0, 2500.0, std::nan("") })
  {
    SimulationParameters p = smallParameters(Precision::Single);
    p.rainfall = rate;
    try
    {
      p.validate();
      FAIL() << "rainfall " << rate << " was accepted";
    }
    catch (const Error& e)
    {
      EXPECT_NE(std::string(e.what()).find("rainfall"), std::string::npos) << e.what();
    }
  }
}
} // namespace
} // namespace swe::test

namespace swe::test
{
namespace
{
// Steady rain on a dry plane tilted towards an open side, the kinematic wave's test (e.g.
// Govindaraju et al. 1988; SWASHES's rain cases): with Manning friction, the discharge per unit
// width leaving the plane rises as q(t) = r L (t / t_e)^(5/3) until the equilibrium time t_e = (n L
// / (sqrt(S) r^(2/3)))^(3/5), then stays at r L, all the rain that falls on it.
TEST(Rain, ATiltedPlaneReachesTheKinematicWavesOutflow)
{
  const double length = 100, slope = 0.01, n = 0.03;
  SimulationParameters p = smallParameters(Precision::Double, 100, 3);
  p.scheme = Scheme::MusclHancock;
  p.dx = 1.0;
  p.manning = n;
  p.rainfall = 100;
  p.boundaries[static_cast<int>(Side::East)] = { BoundaryType::Open, 0.0 };
  InitialState plane(p.nx, p.ny);
  for (int j = 0; j < p.ny; ++j)
    for (int i = 0; i < p.nx; ++i)
      plane.bed[plane.index(i, j)] = slope * (length - (i + 0.5) * p.dx);
  const double r = rainfallRate(p), equilibrium = r * length;
  const double te = std::pow(n * length / (std::sqrt(slope) * std::pow(r, 2.0 / 3.0)), 0.6);
  Simulation sim(p, plane);
  const auto outflow = [&]
  {
    const Fields f = download(sim);
    double q = 0;
    for (int j = 0; j < p.ny; ++j)
      q += f.hu[plane.index(p.nx - 1, j)] / p.ny;
    return q;
  };
  sim.advanceTo(0.5 * te);
  const double rising = outflow(), risingExpected = equilibrium * std::pow(0.5, 5.0 / 3.0);
  EXPECT_NEAR(rising / risingExpected, 1.0, 0.05)
    << "q = " << rising << " m^2/s at t_e / 2 = " << 0.5 * te << " s";
  sim.advanceTo(3 * te);
  const double steady = outflow();
  EXPECT_NEAR(steady / equilibrium, 1.0, 0.005)
    << "q = " << steady << " m^2/s against r L = " << equilibrium << " at 3 t_e";
}
} // namespace
} // namespace swe::test

namespace swe::test
{
namespace
{
TEST(Losses, LowerAFlatBasinByRateTimesTimeAndNeverBelowZero)
{
  for (Precision precision : { Precision::Double, Precision::Single })
    for (Scheme scheme : { Scheme::MusclHllc, Scheme::MusclHancock })
    {
      SimulationParameters p = rainyBasin(scheme, precision);
      p.rainfall = 0;
      p.losses = 360; // 0.1 mm a second
      const double bound = precision == Precision::Double ? 1e-13 : 3e-5;
      // A 1 m lake loses 2 mm in 20 s; a 0.5 mm one is dry after 5 s and stays at 0.
      for (const auto& [h0, expected] : { std::pair{ 1.0, 0.998 }, std::pair{ 0.0005, 0.0 } })
      {
        Simulation sim(p, flatLake(p, h0));
        sim.advanceTo(20.0);
        const Fields f = download(sim);
        for (std::size_t k = 0; k < f.h.size(); ++k)
        {
          ASSERT_LE(std::fabs(f.h[k] - expected), bound) << "cell " << k << ": " << f.h[k];
          ASSERT_GE(f.h[k], 0.0);
          ASSERT_EQ(f.h[k], f.h[0]) << "cell " << k;
          ASSERT_EQ(f.hu[k], 0.0) << "cell " << k;
          ASSERT_EQ(f.hv[k], 0.0) << "cell " << k;
        }
      }
    }
}

TEST(Losses, MatchTheTwinOnTerrainWithRainAndFlow)
{
  // (In the CPU-shaped kernels and in the GPU-shaped sweeps, which this device runs too.)
  for (Scheme scheme : { Scheme::MusclHllc, Scheme::MusclHancock })
    for (const char* launch : { "rows4", "16x1x4" })
    {
      SimulationParameters p = smallParameters(Precision::Double);
      p.scheme = scheme;
      p.launch = launch;
      p.rainfall = 200;
      p.losses = 80;
      p.manning = 0.03;
      p.boundaries[static_cast<int>(Side::East)] = { BoundaryType::Open, 0.0 };
      EXPECT_LE(twinDifferenceAfter<double>(p, hillInALake(p), 100), 1e-10)
        << schemeName(scheme) << " " << launch;
    }
}

TEST(Losses, LaxFriedrichsAndBadRatesAreRefused)
{
  SimulationParameters p = smallParameters(Precision::Single);
  p.losses = 10;
  try
  {
    p.validate();
    FAIL() << "Lax-Friedrichs with losses was accepted";
  }
  catch (const Error& e)
  {
    EXPECT_NE(std::string(e.what()).find("MUSCL-Hancock"), std::string::npos) << e.what();
  }
  p.scheme = Scheme::MusclHancock;
  for (double rate : { -1.0, 2500.0 })
  {
    p.losses = rate;
    EXPECT_THROW(p.validate(), Error) << rate;
  }
}

// 50 mm/h of rain on MUSCL-Hancock's fp32 16 x 16 cells of 1 m.
SimulationParameters rainOnMetreCells()
{
  SimulationParameters p = smallParameters(Precision::Single, 16, 16);
  p.scheme = Scheme::MusclHancock;
  p.dx = 1.0;
  p.rainfall = 50.0;
  return p;
}

// fp32 keeps a 10 m depth to 9.5e-7 m: 50 mm/h on cells of 1 m (3.2e-7 m a step) would be lost
// every step rounded to nearest. The second-order schemes round the sum at random, so the lake
// gains its rain (1.4e-4 m in 10 s) on average, and they are not warned; Lax-Friedrichs rounds to
// nearest, gains its rain wrong by more than 10 %, and is warned before it starts, with the
// depths concerned. Double, or
// water 0.5 m deep, is not warned.
TEST(Rain, SinglePrecisionKeepsRainOnDeepWaterOrWarns)
{
  SimulationParameters p = rainOnMetreCells();
  InitialState lake = stillWater(p, 10.0);
  EXPECT_EQ(singlePrecisionSourceWarning(p, lake), "");
  const double gained = [&]
  {
    Simulation sim(p, lake);
    sim.advanceTo(10.0);
    std::vector<double> h(lake.cells());
    sim.download(Field::Depth, h.data());
    return std::accumulate(h.begin(), h.end(), 0.0) / static_cast<double>(h.size()) - 10.0;
  }();
  const double rain = 50.0 / 3.6e6 * 10.0;
  EXPECT_NEAR(gained, rain, 0.03 * rain);

  p.scheme = Scheme::LaxFriedrichs;
  const std::string warning = singlePrecisionSourceWarning(p, lake);
  for (const char* part : { "50 mm/h of rain is",
         "loses on water deeper than",
         "starts with water 10 m deep",
         "Choose Double" })
    EXPECT_NE(warning.find(part), std::string::npos) << warning << "\nmissing: " << part;
  Simulation sim(p, lake);
  sim.advanceTo(10.0);
  std::vector<double> h(lake.cells());
  sim.download(Field::Depth, h.data());
  for (double depth : h) // (its 6.3e-7 m a step rounded to an ulp of 10 m, 9.5e-7, every step)
    ASSERT_GT(std::fabs(depth - 10.0 - rain), 0.1 * rain) << depth;

  p.scheme = Scheme::MusclHancock;
  p.losses = 5.0;
  EXPECT_NE(singlePrecisionSourceWarning(p, lake).find("5 mm/h of losses"), std::string::npos);
  p.precision = Precision::Double;
  EXPECT_EQ(singlePrecisionSourceWarning(p, lake), "");
  p.precision = Precision::Single;
  p.scheme = Scheme::LaxFriedrichs;
  p.losses = 0;
  for (double& h : lake.h)
    h = 0.5;
  EXPECT_EQ(singlePrecisionSourceWarning(p, lake), "");
}

// A split run is warned for the deepest water of any rank's block: every rank says what the whole
// grid would, though one block alone is shallow.
TEST(Rain, ASplitRunIsWarnedForEveryRanksWater)
{
  SimulationParameters p = rainOnMetreCells();
  p.scheme = Scheme::LaxFriedrichs; // (the scheme that rounds rain to nearest)
  InitialState lake = stillWater(p, 0.5);
  lake.h[lake.index(13, 12)] = 10.0;
  const std::string whole = singlePrecisionSourceWarning(p, lake);
  ASSERT_NE(whole.find("starts with water 10 m deep"), std::string::npos) << whole;
  std::vector<std::string> alone(2), said(2);
  runOnThreads(2,
    [&](ThreadRankExchange& exchange)
    {
      const int rank = exchange.rank();
      const InitialState block = blockOf(lake, splitGrid(p.nx, p.ny, 2, rank).block());
      alone[static_cast<std::size_t>(rank)] = singlePrecisionSourceWarning(p, block);
      said[static_cast<std::size_t>(rank)] = singlePrecisionSourceWarning(p, block, &exchange);
    });
  EXPECT_TRUE(alone[0].empty() || alone[1].empty()); // (one block holds only shallow water)
  for (const std::string& warning : said)
    EXPECT_EQ(warning, whole);
}
} // namespace
} // namespace swe::test
