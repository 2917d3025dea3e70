// Flood maps (SimulationParameters::floodMaps): the device keeps the largest depth, speed and
// hazard, the arrival time and the duration of every cell as the C++ twin folds them, at every
// step; they match the analytic dam break, survive checkpoints bit for bit, cost the state
// nothing, and are refused where not kept.
#include "AnalyticSolutions.h"
#include "Error.h"
#include "Simulation.h"
#include "TestHelpers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace swe::test
{
namespace
{
constexpr Field kMaps[] = { Field::MaxDepth,
  Field::MaxSpeed,
  Field::MaxHazard,
  Field::ArrivalTime,
  Field::Duration };

std::vector<double> map(const Simulation& sim, Field field)
{
  std::vector<double> values(static_cast<std::size_t>(sim.parameters().nx) * sim.parameters().ny);
  sim.download(field, values.data());
  return values;
}

// The Ritter dam break of SWASHES (0.005 m behind a dam at x = 5 m, dry beyond) on a strip.
SimulationParameters ritterStrip(Scheme scheme, Precision precision, int nx)
{
  SimulationParameters p = smallParameters(precision, nx, 3);
  p.dx = 10.0 / nx;
  p.scheme = scheme;
  p.floodMaps = true;
  p.arrivalDepth = 5e-4;
  return p;
}

struct TwinCase
{
  Scheme scheme;
  Precision precision;
  // On the maps' largest difference from the twin's, relative to max(|twin|, 1e-3).
  double bound;
};

class FloodMapsTwin : public ::testing::TestWithParam<TwinCase>
{
};

template<class Real>
void expectMapsMatchTwin(const SimulationParameters& p, const InitialState& initial, double bound)
{
  Simulation device(p, initial);
  ReferenceSolver<Real> twin(p, initial);
  device.step(60);
  twin.takeSteps(60);
  for (Field field : kMaps)
  {
    const std::vector<double> d = map(device, field);
    const std::vector<Real> t = twin.floodMap(field);
    ASSERT_EQ(d.size(), t.size());
    double worst = 0;
    for (std::size_t k = 0; k < d.size(); ++k)
    {
      ASSERT_EQ(std::isnan(d[k]), std::isnan(t[k]))
        << "map " << static_cast<int>(field) << " cell " << k;
      if (!std::isnan(d[k]))
        worst = std::max(worst, std::fabs(d[k] - t[k]) / std::max(std::fabs(double(t[k])), 1e-3));
    }
    EXPECT_LE(worst, bound) << "map " << static_cast<int>(field);
  }
}

TEST_P(FloodMapsTwin, FollowTheTwinStepByStep)
{
  const TwinCase c = GetParam();
  SimulationParameters p = ritterStrip(c.scheme, c.precision, 80);
  InitialState initial = makeScenario(Scenario::RitterDryDamBreak, p);
  if (c.scheme == Scheme::LaxFriedrichs) // (no dry cells: a wet dam break)
    initial = makeScenario(Scenario::StokerWetDamBreak, p);
  if (c.precision == Precision::Double)
    expectMapsMatchTwin<double>(p, initial, c.bound);
  else
    expectMapsMatchTwin<float>(p, initial, c.bound);
}

INSTANTIATE_TEST_SUITE_P(Schemes,
  FloodMapsTwin,
  ::testing::Values(TwinCase{ Scheme::MusclHancock, Precision::Double, 1e-11 },
    TwinCase{ Scheme::MusclHllc, Precision::Double, 1e-11 },
    TwinCase{ Scheme::LaxFriedrichs, Precision::Double, 1e-11 },
    TwinCase{ Scheme::MusclHancock, Precision::Single, 1e-4 }),
  [](const ::testing::TestParamInfo<TwinCase>& info)
  {
    const Scheme s = info.param.scheme;
    return std::string(s == Scheme::MusclHancock ? "MusclHancock"
                       : s == Scheme::MusclHllc  ? "MusclHllc"
                                                 : "LaxFriedrichs") +
           (info.param.precision == Precision::Double ? "Fp64" : "Fp32");
  });

// Ritter's solution beyond the dam at x0: the depth at x grows for ever towards 4 h0 / 9, so
// its maximum by time T is h(x, T); it first reaches d when the rarefaction's point of depth d,
// moving at 2 c0 - 3 sqrt(g d), passes x.
TEST(FloodMaps, MatchRittersDamBreak)
{
  const int nx = 400;
  const SimulationParameters p = ritterStrip(Scheme::MusclHancock, Precision::Double, nx);
  Simulation sim(p, makeScenario(Scenario::RitterDryDamBreak, p));
  const double end = 6.0, x0 = 5.0, h0 = 0.005;
  sim.advanceTo(end);
  const std::vector<double> maxDepth = map(sim, Field::MaxDepth),
                            arrival = map(sim, Field::ArrivalTime),
                            duration = map(sim, Field::Duration);
  const double c0 = std::sqrt(p.gravity * h0);
  const double front = 2 * c0 - 3 * std::sqrt(p.gravity * p.arrivalDepth);
  for (double distance : { 0.4, 0.8, 1.2 })
  {
    const int i = static_cast<int>((x0 + distance) / p.dx);
    const std::size_t k = static_cast<std::size_t>(nx + i); // the middle row
    const double x = (i + 0.5) * p.dx;
    const double expectedArrival = (x - x0) / front;
    // (measured with 400 cells: depths 0.7 to 2.0 % high, arrivals 1.1 to 5.4 % early, the
    // numerical front running ahead of the exact one)
    EXPECT_NEAR(maxDepth[k], ritterDepth(x, end, x0, h0, p.gravity), 0.03 * maxDepth[k])
      << "x = " << x;
    EXPECT_NEAR(arrival[k], expectedArrival, 0.08 * expectedArrival) << "x = " << x;
    // (the step that brought the water counts whole)
    EXPECT_GE(duration[k], end - arrival[k]) << "x = " << x;
    EXPECT_LE(duration[k], end - arrival[k] + 2 * sim.lastDt()) << "x = " << x;
  }
  // Behind the dam the water was there from the start; far beyond it, it never came.
  EXPECT_EQ(arrival[static_cast<std::size_t>(nx + 10)], 0.0);
  EXPECT_NEAR(duration[static_cast<std::size_t>(nx + 10)], end, 1e-12 * end);
  EXPECT_DOUBLE_EQ(maxDepth[static_cast<std::size_t>(nx + 10)], h0);
  EXPECT_TRUE(std::isnan(arrival[static_cast<std::size_t>(2 * nx - 5)]));
  EXPECT_EQ(maxDepth[static_cast<std::size_t>(2 * nx - 5)], 0.0);
}

// Going back to a checkpoint and forward again gives the maps of the run that never stopped, bit
// for bit; reading them on the way changes nothing; and the state is that of a run without maps.
TEST(FloodMaps, SurviveCheckpointsAndLeaveTheStateAlone)
{
  for (SnapshotPlace place : { SnapshotPlace::Host, SnapshotPlace::Device })
  {
    SimulationParameters p = ritterStrip(Scheme::MusclHancock, Precision::Single, 120);
    const InitialState initial = makeScenario(Scenario::RitterDryDamBreak, p);
    Simulation straight(p, initial);
    straight.advanceTo(1.5); // (a target time shortens the step that lands on it)
    straight.advanceTo(4.0);

    Simulation scrubbed(p, initial);
    scrubbed.advanceTo(1.5);
    const Snapshot at = scrubbed.snapshot(place);
    map(scrubbed, Field::MaxHazard); // a read in between
    scrubbed.advanceTo(3.0);
    scrubbed.restore(at);
    scrubbed.advanceTo(4.0);
    EXPECT_EQ(straight.steps(), scrubbed.steps());
    EXPECT_EQ(download(straight).h, download(scrubbed).h);
    for (Field field : kMaps)
    {
      const std::vector<double> a = map(straight, field), b = map(scrubbed, field);
      for (std::size_t k = 0; k < a.size(); ++k)
        ASSERT_TRUE(a[k] == b[k] || (std::isnan(a[k]) && std::isnan(b[k])))
          << "map " << static_cast<int>(field) << " cell " << k << ": " << a[k] << " " << b[k];
    }

    p.floodMaps = false;
    Simulation without(p, initial);
    without.advanceTo(1.5);
    without.advanceTo(4.0);
    EXPECT_EQ(without.steps(), straight.steps());
    const Fields f = download(without), g = download(straight);
    EXPECT_EQ(f.h, g.h);
    EXPECT_EQ(f.hu, g.hu);
    EXPECT_EQ(f.hv, g.hv);
  }
}

// On a lake at rest every cell is flooded from t = 0 on: the duration is the time, summed step
// by step as the clock is.
TEST(FloodMaps, LakeAtRestIsFloodedThroughout)
{
  SimulationParameters p = smallParameters(Precision::Double, 21, 13);
  p.scheme = Scheme::MusclHancock;
  p.floodMaps = true;
  InitialState lake = stillWater(p, 0.3);
  Simulation sim(p, lake);
  sim.advanceTo(7.5);
  ASSERT_GT(sim.steps(), 50);
  for (double d : map(sim, Field::Duration))
    ASSERT_NEAR(d, 7.5, 1e-12);
  for (double a : map(sim, Field::ArrivalTime))
    ASSERT_EQ(a, 0.0);
  for (double h : map(sim, Field::MaxDepth))
    ASSERT_NEAR(h, 0.3, 1e-15);
  for (double hazard : map(sim, Field::MaxHazard))
    ASSERT_NEAR(hazard, 0.15, 1e-12);
}

// The state and its maps, as bytes, after batches of steps, single steps, and steps landing on
// target times.
std::vector<std::vector<unsigned char>> mapsAlongARun(const SimulationParameters& p,
  const InitialState& initial,
  std::int64_t* redone)
{
  Simulation sim(p, initial);
  std::vector<std::vector<unsigned char>> seen;
  const auto keep = [&]
  {
    const StateView view = sim.downloadState();
    seen.emplace_back(view.data,
      view.data + static_cast<std::size_t>(view.fields) * view.nx * view.ny * view.realSize);
  };
  sim.step(4);
  keep();
  for (int k = 0; k < 2; ++k)
  {
    sim.step(1);
    keep();
  }
  sim.step(9);
  keep();
  sim.advanceTo(sim.time() + 0.011);
  keep();
  sim.advanceTo(sim.time() + 0.05);
  keep();
  *redone = sim.redoneSteps();
  return seen;
}

// The GPU-shaped sweeps fold the maps of the state each step reads, the CPU-shaped kernels fold
// each new state in a pass (FloodMaps.h): the same bits, with steps taken again under the outflow
// cap, with dry tiles left out, and with a held dt (every step capped).
TEST(FloodMaps, FoldedInTheStepsAsInAPass)
{
  struct Case
  {
    Scheme scheme;
    Precision precision;
    bool skipDry;
    int interval;
  };
  for (const Case& c : { Case{ Scheme::MusclHancock, Precision::Double, false, 1 },
         Case{ Scheme::MusclHancock, Precision::Single, true, 1 },
         Case{ Scheme::MusclHancock, Precision::Double, true, 3 },
         Case{ Scheme::MusclHllc, Precision::Single, false, 1 },
         Case{ Scheme::MusclHllc, Precision::Double, true, 2 } })
  {
    SimulationParameters p = smallParameters(c.precision, 70, 40);
    p.dx = 0.1;
    p.scheme = c.scheme;
    p.cfl = c.scheme == Scheme::MusclHancock && c.interval == 1 ? 1.0 : 0.45;
    p.floodMaps = true;
    p.arrivalDepth = 1e-5; // (28183 leaves 0.6 mm at most)
    p.skipDry = c.skipDry;
    p.exchangeInterval = c.interval;
    // (28183: its second step is taken again at C = 1; 192 keeps within a held dt)
    const InitialState initial = roughPatch(p, c.interval == 1 ? 28183 : 192, 20, 14);
    const std::string where =
      schemeName(c.scheme) + (c.precision == Precision::Double ? " fp64" : " fp32") +
      (c.skipDry ? " skipping dry land" : "") + ", interval " + std::to_string(c.interval);
    std::int64_t redoneInSteps = 0, redoneWithPass = 0;
    p.launch = "16x1x4";
    const auto inSteps = mapsAlongARun(p, initial, &redoneInSteps);
    p.launch = "rows4";
    const auto withPass = mapsAlongARun(p, initial, &redoneWithPass);
    ASSERT_EQ(inSteps.size(), withPass.size());
    for (std::size_t k = 0; k < inSteps.size(); ++k)
      EXPECT_TRUE(inSteps[k] == withPass[k]) << where << ", check " << k;
    EXPECT_EQ(redoneInSteps, redoneWithPass) << where;
    if (c.scheme == Scheme::MusclHancock && c.interval == 1)
    {
      EXPECT_GT(redoneInSteps, 0) << where;
    }
  }
}

// In fp32 the sweeps compare depths with the arrival depth as the float it rounds to, as the pass
// after a step and the twin do: a lake exactly at an arrival depth whose nine digits would round
// to a neighbouring float is flooded throughout.
TEST(FloodMaps, TheArrivalDepthIsTheFloatItRoundsTo)
{
  SimulationParameters p = smallParameters(Precision::Single, 21, 13);
  p.scheme = Scheme::MusclHancock;
  p.launch = "16x1x4";
  p.floodMaps = true;
  p.arrivalDepth = 0.21990237379007788; // (nine digits, then a float: 0.2199023813)
  const InitialState lake = stillWater(p, p.arrivalDepth); // (held as the float 0.2199023664)
  Simulation sim(p, lake);
  sim.advanceTo(5.0);
  ASSERT_GT(sim.steps(), 20);
  for (double a : map(sim, Field::ArrivalTime))
    ASSERT_EQ(a, 0.0);
  for (double d : map(sim, Field::Duration))
    ASSERT_NEAR(d, 5.0, 1e-4);
}

TEST(FloodMaps, RefusedWhereNotKeptOrBadlyAsked)
{
  SimulationParameters p = smallParameters(Precision::Single, 12, 9);
  Simulation sim(p, makeScenario(Scenario::DamBreak, p));
  std::vector<double> out(12 * 9);
  try
  {
    sim.download(Field::MaxDepth, out.data());
    FAIL() << "no error";
  }
  catch (const Error& e)
  {
    EXPECT_NE(std::string(e.what()).find("keeps no flood maps"), std::string::npos) << e.what();
  }
  p.floodMaps = true;
  for (double bad : { 0.0, -1.0, 1e3, std::nan("") })
  {
    p.arrivalDepth = bad;
    try
    {
      p.validate();
      FAIL() << "no error for " << bad;
    }
    catch (const Error& e)
    {
      EXPECT_NE(std::string(e.what()).find("arrival depth"), std::string::npos) << e.what();
    }
  }
}
} // namespace
} // namespace swe::test
