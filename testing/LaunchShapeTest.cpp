// Launch shapes that must not change the result: every shape, two steps a launch and the CPU path
// give the bits of the default one, and blow-ups are reported at the same step and cell.
#include "Error.h"
#include "LaunchTuner.h"
#include "Simulation.h"
#include "TestHelpers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

using namespace swe;

namespace
{
test::Fields runWithShape(SimulationParameters p, const std::string& launch, double* time)
{
  p.launch = launch;
  InitialState s = makeScenario(Scenario::RadialDamBreak, p);
  for (std::size_t k = 0; k < s.hu.size(); ++k)
    s.hu[k] = 0.3 * std::sin(0.1 * static_cast<double>(k)); // flow across every group edge
  Simulation simulation(p, s);
  simulation.step(30);
  *time = simulation.time();
  return test::download(simulation);
}

// A run of `steps` steps, then on to `until` (a time that is not a whole number of steps).
test::Fields runFixed(SimulationParameters p,
  const std::string& launch,
  int steps,
  double until,
  double* time,
  std::int64_t* count)
{
  p.launch = launch;
  InitialState s = makeScenario(Scenario::RadialDamBreak, p);
  for (std::size_t k = 0; k < s.hu.size(); ++k)
    s.hu[k] = 0.3 * std::sin(0.1 * static_cast<double>(k));
  Simulation simulation(p, s);
  simulation.step(steps);
  simulation.advanceTo(until);
  *time = simulation.time();
  *count = simulation.steps();
  return test::download(simulation);
}

std::string blowUpMessage(SimulationParameters p, const std::string& launch)
{
  p.launch = launch;
  p.fixedDt = 0.5; // dx = 0.5 m and waves at several m/s: unstable within a few steps
  p.buildOptions += " -DCOURANT_LIMIT_DX=INFINITY"; // (else refused before the first step)
  Simulation simulation(p, makeScenario(Scenario::DamBreak, p));
  try
  {
    simulation.advanceTo(100.0);
  }
  catch (const Error& e)
  {
    return e.what();
  }
  return "no error";
}
} // namespace

TEST(LaunchShape, LaxFriedrichsGivesTheSameBitsForEveryShape)
{
  // Sides that are not multiples of any group side or row count (an odd width leaves the last
  // work-item of the GPU-shaped update one cell of its pair); open and inflow sides too, so
  // the ghosts the step writes itself are checked at every boundary kind.
  SimulationParameters p = test::smallParameters(Precision::Double, 51, 37);
  p.boundaries[static_cast<int>(Side::East)] = { BoundaryType::Open, 0.0 };
  p.boundaries[static_cast<int>(Side::North)] = { BoundaryType::Inflow, 0.2 };
  for (const double manning : { 0.0, 0.03 })
  {
    p.manning = manning;
    double t0 = 0;
    const test::Fields reference = runWithShape(p, "default", &t0);
    // GPU-shaped (groups, rows of a column) and CPU-shaped (whole rows, 8-wide vectors plus a
    // scalar remainder: 51 = 6 x 8 + 3).
    for (const std::string shape :
      { "64x4x1", "256x1x8", "32x2x5", "16x16x3", "1x1x1", "128x1x64", "rows1", "rows4", "rows64" })
    {
      double t = 0;
      const test::Fields f = runWithShape(p, shape, &t);
      EXPECT_EQ(t, t0) << shape << ", n = " << manning;
      EXPECT_EQ(test::maxRelativeDifference(f, reference), 0.0) << shape << ", n = " << manning;
    }
  }
}

TEST(LaunchShape, TwoStepsALaunchGiveTheSameBitsAsOneAtATime)
{
  // Every boundary kind (the state between the two steps needs its ghosts in local memory), an
  // odd number of steps (the last one alone), and a target that the fixed dt reaches within a
  // launch's first step (the second is then a no-op) or its second.
  struct Case
  {
    Precision precision;
    double manning, until;
  };
  for (const Case c : { Case{ Precision::Double, 0.0, 0.3549 },
         Case{ Precision::Double, 0.03, 0.3649 },
         Case{ Precision::Single, 0.03, 0.3549 } })
  {
    SimulationParameters p = test::smallParameters(c.precision, 51, 37);
    p.fixedDt = 0.01;
    p.manning = c.manning;
    p.boundaries[static_cast<int>(Side::East)] = { BoundaryType::Open, 0.0 };
    p.boundaries[static_cast<int>(Side::North)] = { BoundaryType::Inflow, 0.2 };
    p.boundaries[static_cast<int>(Side::South)] = { BoundaryType::FixedLevel, 1.2 };
    double t0 = 0, t = 0;
    std::int64_t n0 = 0, n = 0;
    const test::Fields reference = runFixed(p, "64x4x1", 21, c.until, &t0, &n0);
    for (const std::string shape : { "16x2x3s2", "8x8x1s2", "32x1x5s2" })
    {
      const test::Fields f = runFixed(p, shape, 21, c.until, &t, &n);
      const std::string where = shape + ", " + precisionName(c.precision) +
                                ", n = " + std::to_string(c.manning) +
                                ", until = " + std::to_string(c.until);
      EXPECT_EQ(t, t0) << where;
      EXPECT_EQ(n, n0) << where;
      EXPECT_EQ(test::maxRelativeDifference(f, reference), 0.0) << where;
    }
  }
}

TEST(LaunchShape, TwoStepsALaunchReportABlowUpAtTheSameStepAndCell)
{
  const SimulationParameters p = test::smallParameters(Precision::Single, 40, 30);
  const std::string one = blowUpMessage(p, "16x4x1"), two = blowUpMessage(p, "16x4x1s2");
  ASSERT_NE(one.find("blew up at step "), std::string::npos) << one;
  // The same up to the cell's values (two steps a launch show them after the second step).
  EXPECT_EQ(two.substr(0, two.find(" has depth")), one.substr(0, one.find(" has depth")));
}

namespace
{
// A state whose wave speeds grow quickly at first (the radial dam break, flow across every group
// edge), so that some two-step launches predict their second dt too long and are refused; open,
// inflow and level sides and friction, so every ghost of the state between the steps matters.
SimulationParameters pairParameters(Precision precision)
{
  SimulationParameters p = test::smallParameters(precision, 51, 37);
  p.manning = 0.03;
  p.boundaries[static_cast<int>(Side::East)] = { BoundaryType::Open, 0.0 };
  p.boundaries[static_cast<int>(Side::North)] = { BoundaryType::Inflow, 0.2 };
  p.boundaries[static_cast<int>(Side::South)] = { BoundaryType::FixedLevel, 1.2 };
  return p;
}

InitialState pairState(const SimulationParameters& p)
{
  InitialState s = makeScenario(Scenario::RadialDamBreak, p);
  for (std::size_t k = 0; k < s.hu.size(); ++k)
    s.hu[k] = 0.3 * std::sin(0.1 * static_cast<double>(k));
  return s;
}

// The device with two steps a launch and the adaptive dt against the twin taking the same pairs
// (ReferenceSolver::stepPair), target after target; returns the launches refused.
template<class Real>
std::int64_t comparePairsWithTwin(const SimulationParameters& p, double tolerance)
{
  const InitialState initial = pairState(p);
  Simulation device(p, initial);
  ReferenceSolver<Real> twin(p, initial);
  twin.takeStepsInPairs(true);
  // Targets inside a pair's first step and inside its second, and one many pairs away.
  for (const double target : { 0.05, 0.0512, 0.3, 1.0 })
  {
    device.advanceTo(target);
    twin.advanceTo(target);
    const std::string where = std::string(precisionName(p.precision)) + ", " +
                              device.launchShape().text() + ", t = " + std::to_string(target);
    EXPECT_EQ(device.time(), target) << where;
    EXPECT_EQ(device.steps(), twin.steps()) << where;
    EXPECT_LT(
      test::maxRelativeDifference(test::download(device), test::twinFields(twin, p.nx, p.ny)),
      tolerance)
      << where;
  }
  return device.refusedLaunches();
}
} // namespace

TEST(LaunchShape, AdaptiveTwoStepsALaunchTakeTheTwinsPairs)
{
  // A refused launch leaves no trace: the run is the twin's, whose pairs take their second step
  // with the predicted dt, or none where a cell outran the prediction. The refusals here come
  // from the fast start.
  std::int64_t refused = 0;
  for (const std::string shape : { "16x2x3s2", "8x8x1s2" })
  {
    SimulationParameters p = pairParameters(Precision::Double);
    p.launch = shape;
    refused += comparePairsWithTwin<double>(p, 1e-12);
    p.precision = Precision::Single;
    comparePairsWithTwin<float>(p, 1e-4);
  }
  EXPECT_GT(refused, 0) << "no launch was refused: the refusal path went untested";
}

TEST(LaunchShape, AdaptiveTwoStepsALaunchStayCloseToOneAtATime)
{
  // Same physics as one step a launch: the second steps are at most about 1 % shorter, and the
  // results move less than with a 1 % smaller Courant number (Lax-Friedrichs's diffusion
  // follows dt, so either moves them at fronts).
  SimulationParameters p = pairParameters(Precision::Double);
  p.launch = "64x4x1";
  Simulation one(p, pairState(p));
  p.launch = "16x2x3s2";
  Simulation two(p, pairState(p));
  one.advanceTo(2.0);
  two.advanceTo(2.0);
  EXPECT_EQ(two.time(), one.time());
  EXPECT_GE(two.steps(), one.steps());
  EXPECT_LE(static_cast<double>(two.steps()), 1.01 * static_cast<double>(one.steps()) + 1);
  const double pairs = test::maxRelativeDifference(test::download(two), test::download(one));
  p.launch = "64x4x1";
  p.cfl *= 0.99;
  Simulation shorter(p, pairState(p));
  shorter.advanceTo(2.0);
  const double cfl = test::maxRelativeDifference(test::download(shorter), test::download(one));
  EXPECT_LT(pairs, cfl) << "pairs against one at a time " << pairs << ", a Courant number 1 % "
                        << "smaller against it " << cfl;
}

TEST(LaunchShape, AdaptiveTwoStepsALaunchTakeExactlyTheStepsAskedAndRestore)
{
  SimulationParameters p = pairParameters(Precision::Single);
  p.launch = "16x2x3s2";
  Simulation simulation(p, pairState(p));
  for (const int n : { 7, 1, 2, 12 })
  {
    const std::int64_t before = simulation.steps();
    simulation.step(n);
    EXPECT_EQ(simulation.steps(), before + n) << n;
  }
  ASSERT_GT(simulation.refusedLaunches(), 0); // the fast start, in those 22 steps
  // Two steps at a time: one launch each, so a refused one leaves a call without progress at
  // first.
  Simulation pairs(p, pairState(p));
  for (int k = 1; k <= 11; ++k)
  {
    pairs.step(2);
    EXPECT_EQ(pairs.steps(), 2 * k);
  }
  EXPECT_GT(pairs.refusedLaunches(), 0);
  // Going back: the same bits, whatever the refused launches left on the device.
  const Snapshot snapshot = simulation.snapshot();
  simulation.advanceTo(0.7);
  simulation.finish(); // (once set the time to 0 when the clock stood on its target)
  EXPECT_EQ(simulation.time(), 0.7);
  const test::Fields first = test::download(simulation);
  const std::int64_t steps = simulation.steps();
  simulation.restore(snapshot);
  simulation.advanceTo(0.7);
  EXPECT_EQ(simulation.steps(), steps);
  EXPECT_EQ(test::maxRelativeDifference(test::download(simulation), first), 0.0);
}

TEST(LaunchShape, AdaptiveTwoStepsALaunchAreNotRefusedBelowTheInflowSpeed)
{
  // A refusal costs launches, so none where the second dt suits every cell: a lake whose waves
  // are slower than an inflow's, which the dt counts on anyway (six refusals in 40 steps when
  // the check took the lake's own speed).
  SimulationParameters p = test::smallParameters(Precision::Double, 51, 37);
  p.launch = "16x2x3s2";
  p.boundaries[static_cast<int>(Side::North)] = { BoundaryType::Inflow, 1.0 };
  InitialState lake = makeScenario(Scenario::LakeAtRest, p);
  for (double& h : lake.h)
    h = 0.1;
  Simulation device(p, lake);
  ReferenceSolver<double> twin(p, lake);
  twin.takeStepsInPairs(true);
  device.step(40);
  twin.takeSteps(40);
  EXPECT_EQ(device.refusedLaunches(), 0);
  EXPECT_LT(
    test::maxRelativeDifference(test::download(device), test::twinFields(twin, p.nx, p.ny)), 1e-12);
}

TEST(LaunchShape, SecondOrderSweepsGiveTheSameBitsForEveryGroupShape)
{
  for (Scheme scheme : { Scheme::MusclHllc, Scheme::MusclHancock })
  {
    SimulationParameters p = test::smallParameters(Precision::Double, 40, 29);
    p.scheme = scheme;
    double t0 = 0, t1 = 0;
    const test::Fields a = runWithShape(p, "64x1x16", &t0);
    // Groups wider than the grid, the narrowest (4 cells a row), sweeps of two rows, of 3 (the
    // last sweep ends past the grid), and taller than the grid.
    for (const std::string shape : { "128x1x4", "8x1x2", "16x1x3", "32x1x64" })
    {
      const test::Fields b = runWithShape(p, shape, &t1);
      EXPECT_EQ(t0, t1) << schemeName(scheme) << " " << shape;
      EXPECT_EQ(test::maxRelativeDifference(a, b), 0.0) << schemeName(scheme) << " " << shape;
    }
  }
}

TEST(LaunchShape, SecondOrderCpuPathGivesTheSweepsBits)
{
  // The CPU-shaped kernels (rowsN, 8 or 16 cells at a time) against the sweeps: a width that
  // leaves a partial group of lanes at the end of each row (37), one narrower than a group (5),
  // uniform friction, a per-cell Manning field (rough every third column: lanes with and
  // without friction side by side), wet/dry fronts (flow around the emerged bump), open and
  // inflow sides; blocks of one row, of 3 (the last block ends past the grid) and taller than the
  // grid; the width the device prefers and, set through the build options, both widths (on CPU
  // devices).
  struct Case
  {
    Precision precision;
    int nx, ny;
    Scenario scenario;
    double manning; // < 0: the per-cell field
  };
  const auto run = [](
                     SimulationParameters p, const Case& c, const std::string& launch, double* time)
  {
    p.launch = launch;
    InitialState s = makeScenario(c.scenario, p);
    for (std::size_t k = 0; k < s.hu.size(); ++k)
      if (s.h[k] > 0.01)
        s.hu[k] = 0.3 * std::sin(0.1 * static_cast<double>(k)); // flow across lanes and rows
    if (c.manning < 0)
    {
      s.manning.assign(s.cells(), 0.0);
      for (int j = 0; j < p.ny; ++j)
        for (int i = 0; i < p.nx; i += 3)
          s.manning[s.index(i, j)] = 0.05;
    }
    Simulation simulation(p, s);
    simulation.step(30);
    *time = simulation.time();
    return test::download(simulation);
  };
  const std::vector<Case> cases{ { Precision::Double, 37, 23, Scenario::RadialDamBreak, 0.03 },
    { Precision::Double, 37, 23, Scenario::EmergedBump, -1.0 },
    { Precision::Double, 5, 9, Scenario::RadialDamBreak, 0.0 },
    { Precision::Single, 37, 23, Scenario::EmergedBump, -1.0 },
    { Precision::Single, 5, 9, Scenario::RadialDamBreak, 0.03 } };
  for (Scheme scheme : { Scheme::MusclHllc, Scheme::MusclHancock })
    for (std::size_t n = 0; n < cases.size(); ++n)
    {
      const Case& c = cases[n];
      SimulationParameters p = test::smallParameters(c.precision, c.nx, c.ny);
      p.scheme = scheme;
      p.manning = std::max(c.manning, 0.0);
      p.boundaries[static_cast<int>(Side::East)] = { BoundaryType::Open, 0.0 };
      p.boundaries[static_cast<int>(Side::North)] = { BoundaryType::Inflow, 0.2 };
      double t0 = 0, t1 = 0;
      const test::Fields a = run(p, c, "64x1x16", &t0);
      std::vector<std::string> shapes{ "rows3" };
      if (n == 0)
        shapes.insert(shapes.end(), { "rows1", "rows64" });
      // Both widths where the path is meant to run; a GPU compiles 16 lanes of double for
      // a minute and a half (NVIDIA H200), so there only the width it would take.
      const bool cpu = Simulation::check(p).type == "CPU";
      for (const char* lanes : { "", "-DMUSCL_LANES=8", "-DMUSCL_LANES=16" })
        for (const std::string& shape : shapes)
        {
          if (*lanes && (shape != "rows3" || !cpu))
            continue;
          p.buildOptions = lanes;
          const std::string where =
            schemeName(scheme) + " case " + std::to_string(n) + " " + shape + " " + lanes;
          const test::Fields b = run(p, c, shape, &t1);
          EXPECT_GT(t1, 0.0) << where;
          EXPECT_EQ(t0, t1) << where;
          EXPECT_EQ(test::maxRelativeDifference(a, b), 0.0) << where;
        }
    }
}

TEST(LaunchShape, Fp64NewtonArithmeticGivesTheBitsOfDivisionAndSqrtOnEveryShape)
{
  // GPU devices build fp64 with -DNEWTON_FP64: reciprocals and the second order's square roots
  // from float estimates and Newton steps (kernels/device/precision.h), which round as division and
  // sqrt() do but within about 2^-84 of a halfway point (some 10^-10 of the operations). Forced
  // on here, on the GPU-shaped and the CPU-shaped kernels (both vector widths), against a build
  // with it off, on any device. A Newton step too few is caught.
  for (Scheme scheme : { Scheme::LaxFriedrichs, Scheme::MusclHllc, Scheme::MusclHancock })
  {
    SimulationParameters p = test::smallParameters(Precision::Double, 51, 37);
    p.scheme = scheme;
    p.manning = 0.03;
    p.boundaries[static_cast<int>(Side::East)] = { BoundaryType::Open, 0.0 };
    p.boundaries[static_cast<int>(Side::North)] = { BoundaryType::Inflow, 0.2 };
    const bool second = isSecondOrder(scheme);
    const std::string first = second ? "64x1x16" : "64x4x1";
    // (shape, extra build options)
    std::vector<std::pair<std::string, std::string>> runs{
      { first, "" }, { second ? "16x1x3" : "32x2x5", "" }, { "rows3", "" }
    };
    // (16 lanes of double take a GPU compiler a minute and a half: CPU devices only.)
    if (second && Simulation::check(p).type == "CPU")
      runs.push_back({ "rows3", " -DMUSCL_LANES=16" });
    double t0 = 0, t1 = 0;
    p.buildOptions = "-DNEWTON_FP64=0";
    const test::Fields a = runWithShape(p, first, &t0);
    for (const auto& [shape, options] : runs)
    {
      p.buildOptions = "-DNEWTON_FP64=1" + options;
      const test::Fields b = runWithShape(p, shape, &t1);
      const std::string where = schemeName(scheme) + " " + shape + options;
      EXPECT_EQ(t0, t1) << where;
      EXPECT_EQ(test::maxRelativeDifference(a, b), 0.0) << where;
    }
  }
}

TEST(LaunchShape, SecondOrderCpuPathReportsABlowUpAtTheSameStepAndCell)
{
  for (Scheme scheme : { Scheme::MusclHllc, Scheme::MusclHancock })
  {
    SimulationParameters p = test::smallParameters(Precision::Double, 37, 30);
    p.scheme = scheme;
    const std::string sweep = blowUpMessage(p, "16x1x4"), rows = blowUpMessage(p, "rows4");
    ASSERT_NE(sweep.find("blew up at step "), std::string::npos) << sweep;
    EXPECT_EQ(rows, sweep);
  }
}

TEST(LaunchShape, WithoutSpeedAtomicsTheResultsAreTheSameBits)
{
  // A device without the atomics (64-bit ones in fp64) keeps one wave-speed partial per group
  // and the clock in compute_dt: the same maxima, so the same dt and the same bits.
  for (Scheme scheme : { Scheme::LaxFriedrichs, Scheme::MusclHllc, Scheme::MusclHancock })
    for (Precision precision : { Precision::Single, Precision::Double })
    {
      SimulationParameters p = test::smallParameters(precision, 40, 29);
      p.scheme = scheme;
      // Many groups: 5 x 15 for the fresh state's speeds, 10 x 15 for the second-order stages
      // (15 for their CPU-shaped path).
      for (const std::string& shape : isSecondOrder(scheme)
                                        ? std::vector<std::string>{ "8x1x2", "rows2" }
                                        : std::vector<std::string>{ "8x2x1" })
      {
        p.buildOptions.clear();
        double t0 = 0, t1 = 0;
        const test::Fields a = runWithShape(p, shape, &t0);
        p.buildOptions = "-DSWE_NO_SPEED_ATOMICS";
        const test::Fields b = runWithShape(p, shape, &t1);
        EXPECT_GT(t0, 0.0);
        EXPECT_EQ(t0, t1) << shape;
        EXPECT_EQ(test::maxRelativeDifference(a, b), 0.0) << shape;
      }
    }
}

TEST(LaunchShape, TwoStepsALaunchNeedTheDeviceClock)
{
  SimulationParameters p = test::smallParameters(Precision::Double, 20, 20);
  p.fixedDt = 0.01;
  p.buildOptions = "-DSWE_NO_SPEED_ATOMICS"; // as on a device without 64-bit atomics
  p.launch = "16x2x3s2";
  try
  {
    Simulation simulation(p, makeScenario(Scenario::DamBreak, p));
    ADD_FAILURE() << "two steps a launch ran without the device clock";
  }
  catch (const Error& e)
  {
    const std::string message = e.what();
    EXPECT_NE(message.find("16x2x3s2"), std::string::npos) << message;
    EXPECT_NE(message.find("atomics"), std::string::npos) << message;
  }
  // The tuner leaves such shapes out. Its two-step candidates are GPU ones (they are there:
  // GpuTuningTriesTwoStepsALaunchForLaxFriedrichs), so this device is presented as a GPU.
  DeviceInfo gpu = Simulation::check(p);
  gpu.type = "GPU";
  for (const LaunchTiming& timing : timeLaunchShapes(p, gpu, 32))
    EXPECT_EQ(timing.shape.steps, 1) << timing.shape.text();
}
