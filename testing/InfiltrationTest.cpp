// Green-Ampt infiltration (SimulationParameters::infiltration): ponded, the cumulative
// infiltration follows the equation's implicit analytic solution; on terrain under rain the
// device follows the twin; bad parameters are refused naming them.
#include "Error.h"
#include "Simulation.h"
#include "TestHelpers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace swe::test
{
namespace
{
// F at time t of ponded Green-Ampt infiltration from F = 0: the root of
// K t = F - P ln(1 + F / P), by bisection (the function increases with F).
double greenAmptAnalytic(double k, double p, double t)
{
  double low = 0, high = k * t + std::sqrt(2 * p * k * t) + 1;
  for (int it = 0; it < 200; ++it)
  {
    const double mid = 0.5 * (low + high);
    (mid - p * std::log(1 + mid / p) < k * t ? low : high) = mid;
  }
  return 0.5 * (low + high);
}

// A 12 x 9 pond, `depth` deep on a flat bed of cells of dx, after t of MUSCL-Hancock with the
// soil: each cell's cumulative infiltration and depth.
struct Pond
{
  std::vector<double> infiltration, depth;
};
Pond pondAfter(Precision precision, double dx, const GreenAmpt& soil, double depth, double t)
{
  SimulationParameters p = smallParameters(precision, 12, 9);
  p.scheme = Scheme::MusclHancock;
  p.dx = dx;
  p.infiltration = soil;
  InitialState pond = stillWater(p, depth);
  Simulation sim(p, pond);
  sim.advanceTo(t);
  Pond after{ std::vector<double>(pond.cells()), std::vector<double>(pond.cells()) };
  sim.download(Field::Infiltration, after.infiltration.data());
  sim.download(Field::Depth, after.depth.data());
  return after;
}

TEST(Infiltration, PondedFollowsTheAnalyticSolution)
{
  for (Scheme scheme : { Scheme::MusclHllc, Scheme::MusclHancock })
  {
    SimulationParameters p = smallParameters(Precision::Double, 12, 9);
    p.scheme = scheme;
    p.dx = 20.0; // (long steps: the update is exact however long they are)
    p.infiltration = { 10.0, 110.0, 0.3 }; // a loam: K 10 mm/h, psi 110 mm, deficit 0.3
    InitialState lake = stillWater(p, 1.0);
    Simulation sim(p, lake);
    const double k = 10.0 / 3.6e6, pd = 0.110 * 0.3;
    for (double t : { 600.0, 3600.0 })
    {
      sim.advanceTo(t);
      std::vector<double> f(lake.cells()), h(lake.cells());
      sim.download(Field::Infiltration, f.data());
      sim.download(Field::Depth, h.data());
      const double exact = greenAmptAnalytic(k, pd, t);
      for (std::size_t c = 0; c < f.size(); ++c)
      {
        ASSERT_NEAR(f[c], exact, 1e-12 + 1e-9 * exact) << schemeName(scheme) << " t = " << t;
        ASSERT_NEAR(h[c], 1.0 - f[c], 1e-12);
      }
    }
  }
}

// fp32 with steps of about 0.72 ms (27800 to 20 s): each step's increment, from 1e-5 m down to
// 4e-8 m, is far smaller than F, and the increment's own equation keeps it; written for F1, it was
// lost in F0's rounding (60 % short at 20 s).
TEST(Infiltration, SinglePrecisionFollowsItThroughShortSteps)
{
  const Pond pond = pondAfter(Precision::Single, 0.005, { 10.0, 110.0, 0.3 }, 0.25, 20.0);
  const double exact = greenAmptAnalytic(10.0 / 3.6e6, 0.110 * 0.3, 20.0);
  for (std::size_t c = 0; c < pond.depth.size(); ++c)
  {
    // (F's own rounding at each step leaves it within 1e-6 of the root here)
    ASSERT_NEAR(pond.infiltration[c], exact, 1e-4 * exact);
    // (each take rounds the depth by up to half its last digit, 7.5e-9 m: 2.1e-4 m at most)
    ASSERT_NEAR(pond.depth[c] + pond.infiltration[c], 0.25, 2.1e-4);
  }
}

// Without suction (a suction head or a moisture deficit of 0) Green-Ampt takes in at K.
TEST(Infiltration, WithoutSuctionTheRateIsTheConductivity)
{
  const double exact = 10.0 / 3.6e6 * 600.0;
  for (Precision precision : { Precision::Double, Precision::Single })
    for (double f : pondAfter(precision, 20.0, { 10.0, 0.0, 0.3 }, 1.0, 600.0).infiltration)
      ASSERT_NEAR(f, exact, (precision == Precision::Double ? 1e-12 : 1e-5) * exact);
}

TEST(Infiltration, MatchesTheTwinUnderRainOnTerrain)
{
  for (Scheme scheme : { Scheme::MusclHllc, Scheme::MusclHancock })
  {
    SimulationParameters p = smallParameters(Precision::Double, 40, 30);
    p.scheme = scheme;
    p.rainfall = 150;
    p.manning = 0.03;
    p.infiltration = { 30.0, 50.0, 0.35 };
    p.boundaries[static_cast<int>(Side::East)] = { BoundaryType::Open, 0.0 };
    const InitialState s =
      waterOverTerrain(p, 0.15, [](int i, int j) { return 0.2 * std::cos(0.15 * i) + 0.02 * j; });
    EXPECT_LE(twinDifferenceAfter<double>(p, s, 150), 1e-10) << schemeName(scheme);
  }
}

// Steps towards output times: a batch's surplus launches past a target are no-op steps, and the
// first dt after each output must not depend on how many there were. Infiltration (and a point
// source) change the state after the step that published its wave speeds, so a no-op step that
// published the changed state's speeds made that dt, and every bit after it, depend on the
// batches' sizes, which follow the wall-clock time (different bits from run to run under load).
// The device now follows the twin, which takes no steps past a target, at every output.
TEST(Infiltration, OutputTimesGiveTheTwinsStepsWhateverTheBatches)
{
  for (Scheme scheme : { Scheme::MusclHllc, Scheme::MusclHancock })
    for (const char* launch : { "rows4", "16x1x4" }) // (the CPU-shaped kernels, the sweeps)
    {
      SimulationParameters p = smallParameters(Precision::Double, 30, 20);
      p.scheme = scheme;
      p.launch = launch;
      p.infiltration = { 30.0, 50.0, 0.35 };
      p.sources = { { 1.1, 0.6, { { 0, 0.05 }, { 10, 0.05 } } } };
      InitialState lake = hillInALake(p); // (and a dam break on it, so that the steps matter)
      for (int j = 0; j < p.ny; ++j)
        for (int i = 0; i < p.nx / 3; ++i)
          lake.h[lake.index(i, j)] += 0.2;
      Simulation device(p, lake);
      ReferenceSolver<double> twin(p, lake);
      // (a first output a step away: a first batch is 8 steps, so 7 of them are no-ops)
      for (double output : { 0.002, 0.25, 0.5, 0.75, 1.0 })
      {
        device.advanceTo(output);
        twin.advanceTo(output);
        ASSERT_EQ(device.steps(), twin.steps()) << schemeName(scheme) << ' ' << launch;
        ASSERT_LE(maxRelativeDifference(download(device), twinFields(twin, p.nx, p.ny)), 1e-12)
          << schemeName(scheme) << ' ' << launch << ", at " << output << " s";
      }
    }
}

// A soil map (GreenAmpt::perCell): the uniform values as arrays give the uniform run's bits; a
// map of conductivities under a ponded lake gives each cell its own analytic F (none where K is
// 0: impervious), and follows the twin under rain on terrain.
TEST(Infiltration, ASoilMapOfTheUniformValuesGivesTheirBits)
{
  for (Scheme scheme : { Scheme::MusclHllc, Scheme::MusclHancock })
  {
    SimulationParameters p = smallParameters(Precision::Double, 12, 9);
    p.scheme = scheme;
    p.infiltration = { 10.0, 110.0, 0.3 };
    InitialState lake = stillWater(p, 1.0);
    Simulation uniform(p, lake);
    lake.conductivity.assign(lake.cells(), 10.0);
    lake.suction.assign(lake.cells(), 110.0);
    lake.deficit.assign(lake.cells(), 0.3);
    p.infiltration.perCell = true;
    Simulation mapped(p, lake);
    uniform.advanceTo(600.0);
    mapped.advanceTo(600.0);
    std::vector<double> a(lake.cells()), b(lake.cells());
    uniform.download(Field::Infiltration, a.data());
    mapped.download(Field::Infiltration, b.data());
    EXPECT_EQ(a, b) << schemeName(scheme);
  }
}

TEST(Infiltration, ASoilMapGivesEachCellItsOwnAndFollowsTheTwin)
{
  SimulationParameters p = smallParameters(Precision::Double, 12, 9);
  p.scheme = Scheme::MusclHancock;
  p.dx = 20.0;
  p.infiltration = { 0.0, 110.0, 0.3 };
  p.infiltration.perCell = true;
  InitialState lake(p.nx, p.ny);
  lake.conductivity.resize(lake.cells());
  for (int j = 0; j < p.ny; ++j)
    for (int i = 0; i < p.nx; ++i)
    {
      lake.h[lake.index(i, j)] = 1.0;
      lake.conductivity[lake.index(i, j)] = i < 4 ? 0.0 : 2.0 * i; // a road, then ever sandier
    }
  Simulation sim(p, lake);
  sim.advanceTo(600.0);
  std::vector<double> f(lake.cells());
  sim.download(Field::Infiltration, f.data());
  for (int j = 0; j < p.ny; ++j)
    for (int i = 0; i < p.nx; ++i)
    {
      const double k = lake.conductivity[lake.index(i, j)];
      const double exact = k > 0 ? greenAmptAnalytic(k / 3.6e6, 0.110 * 0.3, 600.0) : 0.0;
      ASSERT_NEAR(f[lake.index(i, j)], exact, 1e-12 + 1e-9 * exact) << "cell " << i << ", " << j;
    }
  // Under rain on terrain, with suction and deficit maps too, against the twin.
  SimulationParameters q = smallParameters(Precision::Double, 40, 30);
  q.scheme = Scheme::MusclHllc;
  q.rainfall = 150;
  q.manning = 0.03;
  q.infiltration = { 30.0, 50.0, 0.35 };
  q.infiltration.perCell = true;
  q.boundaries[static_cast<int>(Side::East)] = { BoundaryType::Open, 0.0 };
  InitialState s(q.nx, q.ny);
  s.conductivity.resize(s.cells());
  s.suction.resize(s.cells());
  for (int j = 0; j < q.ny; ++j)
    for (int i = 0; i < q.nx; ++i)
    {
      const std::size_t c = s.index(i, j);
      s.bed[c] = 0.2 * std::cos(0.15 * i) + 0.02 * j;
      s.h[c] = std::max(0.0, 0.15 - s.bed[c]);
      s.conductivity[c] = (i + j) % 3 == 0 ? 0.0 : 5.0 + i;
      s.suction[c] = 40.0 + 3.0 * j;
    }
  EXPECT_LE(twinDifferenceAfter<double>(q, s, 150), 1e-10);
}

TEST(Infiltration, BadParametersAreRefusedNamingThem)
{
  struct Bad
  {
    GreenAmpt g;
    double losses;
    Scheme scheme;
    const char* expected;
  };
  const Bad cases[] = {
    { { 0, 100, 0.3 }, 0, Scheme::MusclHancock, "hydraulic conductivity must be in (0" },
    { { 10, -1, 0.3 }, 0, Scheme::MusclHancock, "suction head must be in [0, 10000] mm" },
    { { 10, 100, 1.5 }, 0, Scheme::MusclHancock, "moisture deficit must be in [0, 1]" },
    { { 10, 100, 0.3 }, 5, Scheme::MusclHancock, "not both" },
    { { 10, 100, 0.3 },
      0,
      Scheme::LaxFriedrichs,
      "Green-Ampt infiltration needs MUSCL-Hancock or MUSCL-HLLC" },
  };
  for (const Bad& c : cases)
  {
    SimulationParameters p = smallParameters(Precision::Single);
    p.scheme = c.scheme;
    p.infiltration = c.g;
    p.losses = c.losses;
    expectRefused(p, c.expected);
  }
  // A soil map's bad value, and soil arrays for a uniform run.
  SimulationParameters p = smallParameters(Precision::Single, 6, 5);
  p.scheme = Scheme::MusclHancock;
  p.infiltration = { 10.0, 100.0, 0.3 };
  InitialState s(p.nx, p.ny);
  s.deficit.assign(s.cells(), 0.3);
  for (bool perCell : { false, true })
  {
    p.infiltration.perCell = perCell;
    if (perCell)
      s.deficit[s.index(2, 3)] = 1.5;
    try
    {
      Simulation sim(p, s);
      ADD_FAILURE() << "not refused";
    }
    catch (const Error& e)
    {
      EXPECT_NE(
        std::string(e.what()).find(perCell ? "moisture deficit must be in [0, 1], got 1.5 at "
                                             "cell (2, 3)"
                                           : "the run's Green-Ampt is uniform"),
        std::string::npos)
        << e.what();
    }
  }
  // A soil map of suction and deficit alone, with no conductivity anywhere, takes nothing in.
  p.infiltration = { 0.0, 0.0, 0.0, true };
  s.deficit.assign(s.cells(), 0.3);
  s.suction.assign(s.cells(), 100.0);
  try
  {
    Simulation sim(p, s);
    ADD_FAILURE() << "not refused";
  }
  catch (const Error& e)
  {
    EXPECT_NE(
      std::string(e.what()).find("no hydraulic conductivity, so no cell"), std::string::npos)
      << e.what();
  }
}
} // namespace
} // namespace swe::test
