// Skipping dry land (SimulationParameters::skipDry, kernels/state/dry_tiles.h): a flood over a dry
// valley gives the same bits with skipping on and off at every output time, on both launch
// paths (GPU-shaped sweeps, CPU-shaped rows), in both MUSCL schemes and precisions, with the
// forcing that brings water from outside a step (a level side, an inflow stretch, a point
// source), losses, flood maps, the water balance and gauges; through a checkpoint and
// MUSCL-Hancock's capped pass too. And it does leave tiles out, but none where rain falls
// everywhere. (Split runs: SplitRunSkipDry.)
#include "Simulation.h"
#include "TestHelpers.h"

#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <vector>

namespace swe::test
{
namespace
{
struct DryCase
{
  Scheme scheme;
  Precision precision;
  const char* launch;
};

void PrintTo(const DryCase& c, std::ostream* out)
{
  *out << schemeName(c.scheme) << " " << precisionName(c.precision) << " " << c.launch;
}

std::string caseName(const testing::TestParamInfo<DryCase>& info)
{
  std::string launch = info.param.launch;
  for (char& c : launch)
    c = c == 'x' ? '_' : c;
  return std::string(info.param.scheme == Scheme::MusclHancock ? "Hancock" : "Hllc") +
         (info.param.precision == Precision::Double ? "Fp64_" : "Fp32_") + launch;
}

// The valley dam break on a grid whose sizes are not multiples of any tile, with water coming
// from every kind of place a step does not see: a level on the west side, an inflow stretch on
// the south side, a point source on the dry floodplain.
SimulationParameters valleyFlood(const DryCase& c)
{
  SimulationParameters p = smallParameters(c.precision, 131, 83);
  p.dx = 6.0;
  p.scheme = c.scheme;
  p.launch = c.launch;
  p.manning = 0.03;
  p.boundaries[static_cast<int>(Side::West)] = Boundary(BoundaryType::FixedLevel, 41.0);
  p.boundaries[static_cast<int>(Side::East)] = Boundary(BoundaryType::Open, 0.0);
  Boundary river(BoundaryType::Inflow, 0.4);
  river.from = 300;
  river.to = 360;
  p.boundaries[static_cast<int>(Side::South)] = river;
  p.sources = { { 600.0, 330.0, { { 0, 2.0 }, { 1e6, 2.0 } } } };
  p.infiltration = { 10.0, 100.0, 0.3 };
  p.floodMaps = true;
  p.waterBalance = true;
  p.gauges = { { 400.0, 250.0 } };
  return p;
}

// Every field the state carries (depth, momenta, infiltration, inflow, flood maps), as the
// device holds them.
std::vector<unsigned char> stateBytes(Simulation& simulation)
{
  const StateView view = simulation.downloadState();
  const std::size_t bytes =
    static_cast<std::size_t>(view.fields) * view.nx * view.ny * view.realSize;
  return { view.data, view.data + bytes };
}

class SkipDry : public testing::TestWithParam<DryCase>
{
};

TEST_P(SkipDry, GivesTheBitsOfEveryCellUpdated)
{
  SimulationParameters p = valleyFlood(GetParam());
  const InitialState initial = makeScenario(Scenario::ValleyDamBreak, p);
  p.skipDry = false;
  Simulation off(p, initial);
  p.skipDry = true;
  Simulation on(p, initial);
  double smallestShare = 1;
  for (double t : { 5.0, 20.0, 45.0 })
  {
    off.advanceTo(t);
    on.advanceTo(t);
    ASSERT_EQ(on.steps(), off.steps()) << "at " << t << " s";
    EXPECT_TRUE(stateBytes(on) == stateBytes(off)) << "at " << t << " s";
    smallestShare = std::min(smallestShare, on.updatedTileShare());
  }
  EXPECT_EQ(on.gauges().values, off.gauges().values);
  // Most of the valley is dry: skipping did leave tiles out.
  EXPECT_LT(smallestShare, 0.8);
  EXPECT_EQ(off.updatedTileShare(), 1.0);
}

TEST_P(SkipDry, GoesBackToACheckpointWithTheSameBits)
{
  SimulationParameters p = valleyFlood(GetParam());
  p.skipDry = true;
  Simulation simulation(p, makeScenario(Scenario::ValleyDamBreak, p));
  simulation.advanceTo(10.0);
  const Snapshot checkpoint = simulation.snapshot();
  simulation.advanceTo(30.0);
  const std::vector<unsigned char> first = stateBytes(simulation);
  simulation.restore(checkpoint);
  simulation.advanceTo(30.0);
  EXPECT_TRUE(stateBytes(simulation) == first);
}

INSTANTIATE_TEST_SUITE_P(Paths,
  SkipDry,
  testing::Values(DryCase{ Scheme::MusclHancock, Precision::Single, "32x1x8" },
    DryCase{ Scheme::MusclHancock, Precision::Double, "rows2" },
    DryCase{ Scheme::MusclHancock, Precision::Single, "rows1" },
    DryCase{ Scheme::MusclHllc, Precision::Single, "rows4" },
    DryCase{ Scheme::MusclHllc, Precision::Double, "16x1x4" }),
  caseName);

// MUSCL-Hancock's capped pass (a step taken again where a depth went below zero) updates the
// tiles the first pass chose: a rough patch (SecondOrderTest's seed 192 at C = 1) in the middle of
// dry land, on both launch paths, without speed atomics too.
TEST(SkipDryRedo, TheCappedPassGivesTheBitsOfEveryCellUpdated)
{
  for (const char* launch : { "16x1x2", "rows2" })
    for (const char* options : { "", "-DSWE_NO_SPEED_ATOMICS" })
    {
      SimulationParameters p = smallParameters(Precision::Double, 200, 90);
      p.dx = 0.1;
      p.scheme = Scheme::MusclHancock;
      p.cfl = 1.0;
      p.launch = launch;
      p.buildOptions = options;
      const InitialState initial = roughPatch(p, 192, 94, 39);
      p.skipDry = false;
      Simulation off(p, initial);
      p.skipDry = true;
      Simulation on(p, initial);
      off.step(30);
      on.step(30);
      const std::string where = std::string(launch) + " " + options;
      EXPECT_GT(on.redoneSteps(), 0) << where;
      EXPECT_EQ(on.redoneSteps(), off.redoneSteps()) << where;
      EXPECT_LT(on.updatedTileShare(), 0.6) << where;
      EXPECT_TRUE(stateBytes(on) == stateBytes(off)) << where;
    }
}

TEST(SkipDryRain, UpdatesEveryTileWhereRainFallsEverywhere)
{
  SimulationParameters p = valleyFlood({ Scheme::MusclHancock, Precision::Single, "32x1x8" });
  p.rainfall = 50;
  p.skipDry = true;
  Simulation simulation(p, makeScenario(Scenario::ValleyDamBreak, p));
  simulation.advanceTo(5.0);
  EXPECT_EQ(simulation.updatedTileShare(), 1.0);
}
} // namespace
} // namespace swe::test
