// Side boundaries: the kernel against the twin, and what each kind does to the water.
#include "Error.h"
#include "ReferenceSolver.h"
#include "Simulation.h"
#include "TestHelpers.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <cmath>

using namespace swe;

namespace
{
void setBoundary(SimulationParameters& p, Side side, BoundaryType type, double value = 0)
{
  p.boundaries[static_cast<int>(side)] = Boundary{ type, value };
}

template<class Real>
double twinDifference(Scheme scheme, Precision precision)
{
  SimulationParameters p = test::smallParameters(precision, 40, 30);
  p.scheme = scheme;
  setBoundary(p, Side::West, BoundaryType::Inflow, 3.0);
  setBoundary(p, Side::East, BoundaryType::Open);
  setBoundary(p, Side::South, BoundaryType::FixedLevel, 12.0);
  InitialState s = makeScenario(Scenario::RadialDamBreak, p);
  for (std::size_t k = 0; k < s.cells(); ++k)
    s.bed[k] = isSecondOrder(scheme) ? 0.5 * std::sin(0.3 * static_cast<double>(k % 40)) : 0;
  return test::twinDifferenceAfter<Real>(p, s, 100);
}

} // namespace

TEST(Boundaries, MatchTheTwinOnEverySideKind)
{
  EXPECT_LE(twinDifference<double>(Scheme::LaxFriedrichs, Precision::Double), 1e-12);
  EXPECT_LE(twinDifference<double>(Scheme::MusclHllc, Precision::Double), 1e-12);
  EXPECT_LE(twinDifference<double>(Scheme::MusclHancock, Precision::Double), 1e-12);
}

TEST(Boundaries, OpenSideLetsWavesLeave)
{
  // A Stoker dam break in a 10 m channel open on the east, against the same in a 20 m channel:
  // once the shock has left the short one, both agree over the first 10 m (no reflection).
  SimulationParameters shortChannel = test::smallParameters(Precision::Double, 100, 4);
  shortChannel.scheme = Scheme::MusclHllc;
  shortChannel.dx = 0.1;
  setBoundary(shortChannel, Side::East, BoundaryType::Open);
  SimulationParameters longChannel = shortChannel;
  longChannel.nx = 200;
  setBoundary(longChannel, Side::East, BoundaryType::Wall);
  // Same dam position (x = 5 m) in both: the long channel's scenario puts it at half-length.
  InitialState longState = makeScenario(Scenario::StokerWetDamBreak, longChannel);
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < 200; ++i)
      longState.h[longState.index(i, j)] = i < 50 ? 0.005 : 0.001;
  InitialState shortState = makeScenario(Scenario::StokerWetDamBreak, shortChannel);
  Simulation a(shortChannel, shortState), b(longChannel, longState);
  a.advanceTo(14.0); // the shock (about 0.21 m/s) leaves the short channel after about 10 s
  b.advanceTo(14.0);
  std::vector<double> ha(400), hb(800);
  a.download(Field::Depth, ha.data());
  b.download(Field::Depth, hb.data());
  double worst = 0;
  for (int i = 0; i < 100; ++i)
    worst = std::max(worst, std::fabs(ha[i] - hb[i]));
  EXPECT_LT(worst, 2e-5) << "metres of depth, against a 4 mm wave";
  EXPECT_LT(a.diagnostics().mass, 0.03 - 0.0005) << "water must have left through the east side";
}

TEST(Boundaries, InflowAddsItsDischarge)
{
  for (Scheme scheme : { Scheme::MusclHllc, Scheme::MusclHancock })
    for (Side side : { Side::South, Side::North })
    {
      SimulationParameters p = test::smallParameters(Precision::Double, 8, 60);
      p.dx = 1.0;
      p.scheme = scheme;
      setBoundary(p, side, BoundaryType::Inflow, 2.0);
      Simulation sim(p, makeScenario(Scenario::LakeAtRest, p));
      const double m0 = sim.diagnostics().mass;
      sim.advanceTo(3.0);
      // 2 m^2/s across an 8 m side for 3 s: 48 m^3, exactly (the side faces' mass flux).
      EXPECT_NEAR(sim.diagnostics().mass - m0, 48.0, 48.0 * 1e-10)
        << schemeName(scheme) << ", side " << static_cast<int>(side);
    }
}

TEST(Boundaries, InflowFloodsADryOrAlmostDryBed)
{
  // 0.5 m^2/s into a dry bed, and into a 1e-5 m film (its ghost once carried the discharge at
  // 0.5 / 1e-5 m/s and the run blew up; into the dry bed nothing entered): the second-order
  // schemes take the discharge in through a ghost of the critical depth.
  for (Scheme scheme : { Scheme::MusclHllc, Scheme::MusclHancock })
    for (const double film : { 0.0, 1e-5 })
    {
      SimulationParameters p = test::smallParameters(Precision::Double, 60, 8);
      p.dx = 1.0;
      p.scheme = scheme;
      setBoundary(p, Side::West, BoundaryType::Inflow, 0.5);
      InitialState dry = makeScenario(Scenario::LakeAtRest, p);
      for (std::size_t k = 0; k < dry.cells(); ++k)
      {
        dry.h[k] = film;
        dry.hu[k] = dry.hv[k] = 0.0;
        dry.bed[k] = 0.0;
      }
      Simulation sim(p, dry);
      const double m0 = sim.diagnostics().mass;
      ASSERT_NO_THROW(sim.advanceTo(10.0)) << schemeName(scheme) << ", film " << film;
      // 0.5 m^2/s across an 8 m side for 10 s: 40 m^3 (the front has not reached the east side).
      EXPECT_NEAR(sim.diagnostics().mass - m0, 40.0, 40.0 * 1e-10)
        << schemeName(scheme) << ", film " << film;
    }
}

TEST(Boundaries, ALevelBesideDryLandStartsADamBreakWithShortSteps)
{
  // A 2 m level on the west of a dry bed: the level's water (sqrt(g 2) = 4.4 m/s) bounds the
  // first dt, which once came from the still interior alone (one step of 3 s, 6 m deep water).
  for (Scheme scheme : { Scheme::MusclHllc, Scheme::MusclHancock })
    for (Precision precision : { Precision::Single, Precision::Double })
    {
      SimulationParameters p = test::smallParameters(precision, 60, 4);
      p.dx = 1.0;
      p.scheme = scheme;
      setBoundary(p, Side::West, BoundaryType::FixedLevel, 2.0);
      InitialState dry = makeScenario(Scenario::LakeAtRest, p);
      for (std::size_t k = 0; k < dry.cells(); ++k)
        dry.h[k] = dry.hu[k] = dry.hv[k] = dry.bed[k] = 0.0;
      Simulation sim(p, dry);
      ASSERT_NO_THROW(sim.advanceTo(3.0)) << schemeName(scheme);
      // (dt = 0.45 x 0.5 m / 4.4 m/s at most: 59 steps or more)
      EXPECT_GE(sim.steps(), 59) << schemeName(scheme);
      const test::Fields f = test::download(sim);
      EXPECT_LE(*std::max_element(f.h.begin(), f.h.end()), 2.0) << schemeName(scheme);
      // The front (8.9 m/s, and the 3 m/s the level side's water enters with) has come about
      // 35 m in: the far end is still dry.
      EXPECT_EQ(f.h[static_cast<std::size_t>(p.nx - 1)], 0.0) << schemeName(scheme);
    }
}

TEST(Boundaries, FixedLevelFillsTheLake)
{
  // A 0.5 m lake behind a 0.6 m reservoir level on the east: it fills to 0.6 m. The level side
  // reflects waves (as a real reservoir does), so the lake seiches around the new level; the
  // time-averaged level is what must match.
  SimulationParameters p = test::smallParameters(Precision::Double, 20, 4);
  p.dx = 1.0;
  p.scheme = Scheme::MusclHllc;
  p.manning = 0.03;
  setBoundary(p, Side::East, BoundaryType::FixedLevel, 0.6);
  InitialState lake = makeScenario(Scenario::LakeAtRest, p);
  for (double& depth : lake.h)
    depth = 0.5;
  Simulation sim(p, lake);
  const double area = 20.0 * 4.0;
  double sum = 0;
  int samples = 0;
  for (double t = 100.0; t <= 300.0; t += 0.5, ++samples)
  {
    sim.advanceTo(t);
    sum += sim.diagnostics().mass / area;
  }
  EXPECT_NEAR(sum / samples, 0.6, 0.005);
}

TEST(Boundaries, BadBoundariesAreClearErrors)
{
  SimulationParameters p;
  const auto expectError = [&](const std::string& text, const std::string& fragment)
  {
    try
    {
      SimulationParameters q;
      parseBoundary(text, q);
      q.validate();
      FAIL() << text;
    }
    catch (const Error& e)
    {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
  };
  expectError("west=wall:2", "the west boundary is a wall and takes no value, got 2");
  expectError("east=open:1", "the east boundary is open and takes no value");
  expectError("north=inflow", "needs a value");
  expectError("south=level:x", "'x' is not a number");
  expectError("up=open", "unknown side 'up'");
  expectError("west=river", "unknown boundary type 'river'");
  expectError("west", "SIDE=TYPE[:VALUE]");
  expectError("west=inflow:nan", "west boundary value must be a finite number");
  parseBoundary("north=level:1.5", p);
  EXPECT_EQ(p.boundaries[static_cast<int>(Side::North)].type, BoundaryType::FixedLevel);
  EXPECT_EQ(p.boundaries[static_cast<int>(Side::North)].value, 1.5);
}
