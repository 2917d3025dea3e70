// Launch shapes and their tuning: any shape gives the same bits, bad shapes are clear errors, and
// "auto" tunes once and then reads the per-user cache.
#include "Error.h"
#include "LaunchTuner.h"
#include "Simulation.h"
#include "TestHelpers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace swe;

namespace
{
// A GPU's limits as the launch-shape checks see them (no device is run).
DeviceInfo fakeGpu()
{
  DeviceInfo gpu;
  gpu.name = "gpu";
  gpu.type = "GPU";
  gpu.maxWorkGroupSize = 1024;
  gpu.localMemory = 48 * 1024;
  return gpu;
}

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

std::string readFile(const std::string& path)
{
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string errorOf(const SimulationParameters& p)
{
  try
  {
    Simulation simulation(p, makeScenario(Scenario::DamBreak, p));
  }
  catch (const Error& e)
  {
    return e.what();
  }
  return "no error";
}

// Points the cache at a fresh file for one test, and back afterwards.
class ScopedCache
{
public:
  explicit ScopedCache(const std::string& name)
    : path_(std::string(::testing::TempDir()) + name)
  {
    const char* old = std::getenv("SWE_LAUNCH_CACHE");
    had_ = old != nullptr;
    if (had_)
      old_ = old;
    std::remove(path_.c_str());
    ::setenv("SWE_LAUNCH_CACHE", path_.c_str(), 1);
  }
  ~ScopedCache()
  {
    std::remove(path_.c_str());
    if (had_)
      ::setenv("SWE_LAUNCH_CACHE", old_.c_str(), 1);
    else
      ::unsetenv("SWE_LAUNCH_CACHE");
  }
  const std::string& path() const { return path_; }

private:
  std::string path_, old_;
  bool had_ = false;
};
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
  // from float estimates and Newton steps (kernels/precision.h), which round as division and
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

TEST(LaunchShape, SecondOrderTakesOneRowOfItemsThatFitsTheDevice)
{
  DeviceInfo device;
  device.name = "small";
  device.maxWorkGroupSize = 256;
  device.localMemory = 16 * 1024;
  SimulationParameters p = test::smallParameters(Precision::Double, 20, 20);
  p.scheme = Scheme::MusclHllc;
  EXPECT_NO_THROW(checkLaunchShape(parseLaunchShape("64x1x16"), p, device));
  EXPECT_NO_THROW(checkLaunchShape(parseLaunchShape("rows4"), p, device)); // the CPU path
  for (const std::string text : { "32x8x1", "4x1x16", "64x1x1" })
    try
    {
      checkLaunchShape(parseLaunchShape(text), p, device);
      ADD_FAILURE() << text << " is not a second-order shape";
    }
    catch (const Error& e)
    {
      EXPECT_NE(std::string(e.what()).find("one row of at least 8"), std::string::npos) << e.what();
    }
  // The default and every candidate fit, in both precisions.
  for (Precision precision : { Precision::Double, Precision::Single })
  {
    p.precision = precision;
    for (const LaunchShape& shape : launchCandidates(p, device))
    {
      EXPECT_NO_THROW(checkLaunchShape(shape, p, device)) << shape.text();
      EXPECT_EQ(shape.groupY, 1) << shape.text();
    }
    EXPECT_NO_THROW(checkLaunchShape(defaultLaunchShape(p, device), p, device));
  }
  // On a CPU device the tuner tries the default sweep and the CPU-shaped path.
  device.type = "CPU";
  int wholeRows = 0;
  for (const LaunchShape& shape : launchCandidates(p, device))
  {
    EXPECT_NO_THROW(checkLaunchShape(shape, p, device)) << shape.text();
    wholeRows += shape.wholeRows ? 1 : 0;
  }
  EXPECT_GE(wholeRows, 2);
  EXPECT_TRUE(launchCandidates(p, device).front().wholeRows);
  const std::vector<LaunchShape> candidates = launchCandidates(p, device);
  EXPECT_NE(std::find(candidates.begin(), candidates.end(), defaultLaunchShape(p, device)),
    candidates.end());
}

TEST(LaunchShape, EachDeviceKindTriesItsUsualPickFirst)
{
  const DeviceInfo gpu = fakeGpu();
  DeviceInfo cpu = gpu;
  cpu.type = "CPU";
  cpu.maxWorkGroupSize = 4096;
  cpu.localMemory = 4 << 20;
  SimulationParameters p = test::smallParameters(Precision::Single, 1000, 1000);
  EXPECT_EQ(likelyLaunchShape(p, gpu).text(), "32x8x4s2");
  EXPECT_EQ(likelyLaunchShape(p, cpu).text(), "rows16");
  p.precision = Precision::Double;
  EXPECT_EQ(likelyLaunchShape(p, gpu).text(), "32x8x2s2");
  p.fixedDt = 0.01;
  EXPECT_EQ(likelyLaunchShape(p, gpu).text(), "32x4x2s2");
  p.fixedDt = 0;
  for (const Scheme scheme : { Scheme::MusclHllc, Scheme::MusclHancock })
  {
    p.scheme = scheme;
    EXPECT_EQ(likelyLaunchShape(p, cpu).text(), "rows4");
    const std::pair<int, const char*> bySize[] = {
      { 1000, "128x1x16" }, { 2048, "128x1x16" }, { 4096, "128x1x32" }, { 8192, "128x1x64" }
    };
    for (const auto& [side, shape] : bySize)
    {
      p.nx = p.ny = side;
      EXPECT_EQ(likelyLaunchShape(p, gpu).text(), shape) << side;
    }
  }
  // Every candidate fits, once, and the default is one of them.
  for (const DeviceInfo& device : { gpu, cpu })
    for (const Scheme scheme : { Scheme::LaxFriedrichs, Scheme::MusclHllc })
    {
      p.scheme = scheme;
      const std::vector<LaunchShape> shapes = launchCandidates(p, device);
      for (std::size_t k = 0; k < shapes.size(); ++k)
      {
        EXPECT_NO_THROW(checkLaunchShape(shapes[k], p, device)) << shapes[k].text();
        EXPECT_EQ(std::count(shapes.begin(), shapes.end(), shapes[k]), 1) << shapes[k].text();
      }
      EXPECT_EQ(std::count(shapes.begin(), shapes.end(), defaultLaunchShape(p, device)), 1);
    }
}

TEST(LaunchShape, GpuTuningTriesTwoStepsALaunchForLaxFriedrichs)
{
  const DeviceInfo gpu = fakeGpu();
  const auto twoStepShapes = [&](const SimulationParameters& p)
  {
    int count = 0;
    for (const LaunchShape& shape : launchCandidates(p, gpu))
    {
      EXPECT_NO_THROW(checkLaunchShape(shape, p, gpu)) << shape.text();
      count += shape.steps == 2 ? 1 : 0;
    }
    return count;
  };
  SimulationParameters p = test::smallParameters(Precision::Double, 20, 20);
  for (const double dt : { 0.0, 0.01 }) // adaptive and fixed
  {
    p.fixedDt = dt;
    p.precision = Precision::Double;
    EXPECT_GE(twoStepShapes(p), 2); // the fp64 tiles that fit 48 KiB
    p.precision = Precision::Single;
    EXPECT_GE(twoStepShapes(p), 4);
  }
  p.scheme = Scheme::MusclHllc;
  EXPECT_EQ(twoStepShapes(p), 0);
}

TEST(LaunchShape, GpuTuningRunsOnTheRunsSizeClass)
{
  DeviceInfo gpu;
  gpu.name = "gpu";
  gpu.type = "GPU";
  gpu.globalMemory = std::uint64_t(80) << 30;
  SimulationParameters p = test::smallParameters(Precision::Single, 64, 64);
  struct Case
  {
    int nx, ny, side;
  };
  // The side rounded to a power of two (in log scale), 1024 to 8192.
  for (const Case c : { Case{ 64, 64, 1024 },
         Case{ 1000, 1000, 1024 },
         Case{ 1448, 1448, 1024 },
         Case{ 1449, 1449, 2048 },
         Case{ 2048, 2048, 2048 },
         Case{ 3000, 3000, 4096 },
         Case{ 8192, 2048, 4096 },
         Case{ 5792, 5792, 4096 },
         Case{ 5793, 5793, 8192 },
         Case{ 8192, 8192, 8192 },
         Case{ 30000, 30000, 8192 } })
  {
    p.nx = c.nx;
    p.ny = c.ny;
    EXPECT_EQ(tuningSide(p, gpu), c.side) << c.nx << " x " << c.ny;
  }
  // A device too small for the class tunes on half the largest grid it holds.
  gpu.globalMemory = std::uint64_t(1) << 30; // 1 GiB: half its largest fp32 grid is < 8192
  p.nx = p.ny = 8192;
  EXPECT_EQ(tuningSide(p, gpu),
    static_cast<int>(Simulation::largestSquareGrid(Precision::Single, gpu) / 2));
  // CPU devices: one class.
  DeviceInfo cpu = gpu;
  cpu.type = "CPU";
  cpu.globalMemory = std::uint64_t(16) << 30;
  for (const int n : { 64, 2048, 8192 })
  {
    p.nx = p.ny = n;
    EXPECT_EQ(tuningSide(p, cpu), 512) << n;
  }
}

TEST(LaunchShape, TuningForALargerGridTimesTheFourFastestAgainOnIt)
{
  // On a CPU device every candidate runs on 512^2; a larger side re-times the four fastest.
  const SimulationParameters p = test::smallParameters(Precision::Single, 64, 64);
  const DeviceInfo device = Simulation::check(p);
  if (device.type != "CPU")
    GTEST_SKIP() << "the full trial grid of a GPU (4096^2) is too slow for a test";
  const std::size_t candidates = launchCandidates(p, device).size();
  ASSERT_GE(candidates, 5u);
  const std::vector<LaunchTiming> timings = timeLaunchShapes(p, device, 768);
  ASSERT_EQ(timings.size(), candidates);
  for (std::size_t k = 0; k < timings.size(); ++k)
  {
    EXPECT_EQ(timings[k].side, k < 4 ? 768 : 512) << k;
    if (k > 0 && k != 4)
    {
      EXPECT_GE(timings[k - 1].cellsPerSecond, timings[k].cellsPerSecond) << k;
    }
  }
  for (const LaunchTiming& timing : timeLaunchShapes(p, device, 512))
    EXPECT_EQ(timing.side, 512);
}

TEST(LaunchShape, BadShapesAreClearErrors)
{
  SimulationParameters p = test::smallParameters(Precision::Single, 20, 20);
  for (const std::string text : { "64x4",
         "64x4x1x2",
         "sixty",
         "48x4x1",
         "64x4x0",
         "64x4x65",
         "64x4x1s3",
         "64x4x1s2x",
         "64x4x1s" })
  {
    p.launch = text;
    EXPECT_THROW(p.validate(), Error) << text;
    EXPECT_NE(errorOf(p).find("'" + text + "'"), std::string::npos) << errorOf(p);
  }
  p.launch = "4096x4096x1";
  EXPECT_NE(errorOf(p).find("larger than"), std::string::npos) << errorOf(p);
  p.launch = "rows4s2";
  EXPECT_THROW(p.validate(), Error);
  p.launch = "64x1x16s2";
  p.scheme = Scheme::MusclHancock;
  EXPECT_NE(errorOf(p).find("Lax-Friedrichs"), std::string::npos) << errorOf(p);
  p.launch = "64x4x2";
  p.scheme = Scheme::MusclHllc;
  EXPECT_NE(errorOf(p).find("one row of at least 8"), std::string::npos) << errorOf(p);
}

TEST(LaunchShape, AutoTunesOnceThenReadsTheCache)
{
  const ScopedCache cache("swe-launch-cache-test.txt");
  SimulationParameters p = test::smallParameters(Precision::Single, 64, 64);
  const DeviceInfo device = Simulation::check(p);
  const LaunchShape tuned = resolveLaunchShape(p, device);
  const std::string written = readFile(cache.path());
  ASSERT_NE(written.find('\t' + tuned.text() + '\t'), std::string::npos) << written;
  // The line names the trial grid.
  const std::string grid = "|grid " + std::to_string(tuningSide(p, device)) + '\t';
  EXPECT_NE(written.find(grid), std::string::npos) << written;

  // A shape planted in the cache is used as is: no second tuning.
  const std::size_t line = written.find(device.name);
  ASSERT_NE(line, std::string::npos);
  const std::size_t shapeStart = written.find('\t', line) + 1;
  const std::size_t shapeEnd = written.find('\t', shapeStart);
  std::string planted = written;
  planted.replace(shapeStart, shapeEnd - shapeStart, "8x2x3");
  std::ofstream(cache.path()) << planted;
  EXPECT_EQ(resolveLaunchShape(p, device).text(), "8x2x3");
  Simulation simulation(p, makeScenario(Scenario::DamBreak, p));
  EXPECT_EQ(simulation.launchShape().text(), "8x2x3");

  // A damaged entry is tuned again and overwritten.
  planted.replace(shapeStart, 5, "junk!");
  std::ofstream(cache.path()) << planted;
  const LaunchShape retuned = resolveLaunchShape(p, device);
  const std::string rewritten = readFile(cache.path());
  EXPECT_EQ(rewritten.find("junk!"), std::string::npos);
  EXPECT_NE(rewritten.find('\t' + retuned.text() + '\t'), std::string::npos) << rewritten;

  // An explicit shape or "default" never reads or tunes.
  p.launch = "default";
  EXPECT_EQ(resolveLaunchShape(p, device), defaultLaunchShape(p, device));
}

TEST(LaunchShape, TuningThatNothingSurvivesIsAClearError)
{
  const ScopedCache cache("swe-launch-cache-broken.txt");
  SimulationParameters p = test::smallParameters(Precision::Single, 32, 32);
  p.buildOptions = "-DGHOST=not_a_number"; // every candidate's kernels fail to build
  const std::string message = errorOf(p);
  EXPECT_NE(message.find("no launch shape runs on"), std::string::npos) << message;
  EXPECT_NE(message.find("Build log"), std::string::npos) << message;
}

namespace
{
// A clock that says each candidate took the next of the given durations (the last one again
// after them): read once at the start and once after each candidate.
std::function<double()> fakeClock(std::vector<double> durations)
{
  auto state = std::make_shared<std::pair<std::size_t, double>>(0, 0.0);
  return [state, durations]
  {
    const std::size_t reads = state->first++;
    if (reads > 0)
      state->second += durations[std::min(reads - 1, durations.size() - 1)];
    return state->second;
  };
}
} // namespace

TEST(LaunchShape, TuningStopsAfterTheCandidateWhereTheTimeRanOut)
{
  // Lax-Friedrichs on the CPU device (PoCL) has six candidates; a 32^2 trial keeps them quick.
  const SimulationParameters p = test::smallParameters(Precision::Single, 64, 64);
  const DeviceInfo device = Simulation::check(p);
  const std::vector<LaunchShape> candidates = launchCandidates(p, device);
  ASSERT_GE(candidates.size(), 4u);
  const int all = static_cast<int>(candidates.size());
  struct Case
  {
    double seconds;
    std::vector<double> durations;
    int tried;
  };
  for (const Case& c : {
         Case{ 0.0, { 1.0 }, 1 },               // no time: the first candidate only
         Case{ 2.5, { 1.0 }, 2 },               // a third would end at 3 s
         Case{ 3.0, { 1.0 }, 3 },               // a fourth would end at 4 s
         Case{ 3.0, { 0.1, 5.0 }, 2 },          // the time ran out during the second
         Case{ 3.0, { 0.1, 0.1, 0.1, 0.5 }, 6 } // (as many as there are)
       })
  {
    TuningLimits limits;
    limits.seconds = c.seconds;
    limits.clock = fakeClock(c.durations);
    const LaunchTuning tuning = tuneLaunchShapes(p, device, limits, 32);
    const int tried = std::min(c.tried, all);
    EXPECT_EQ(tuning.tried, tried) << c.seconds;
    EXPECT_EQ(tuning.planned, all);
    EXPECT_EQ(tuning.complete(), tried == all);
    ASSERT_EQ(tuning.timings.size(), static_cast<std::size_t>(tried));
    // The first ones in order, fastest first.
    for (int k = 0; k < tried; ++k)
      EXPECT_NE(std::find_if(tuning.timings.begin(),
                  tuning.timings.end(),
                  [&](const LaunchTiming& t) { return t.shape == candidates[k]; }),
        tuning.timings.end())
        << candidates[k].text();
    for (std::size_t k = 1; k < tuning.timings.size(); ++k)
      EXPECT_GE(tuning.timings[k - 1].cellsPerSecond, tuning.timings[k].cellsPerSecond);
  }
  EXPECT_EQ(candidates.front(), likelyLaunchShape(p, device));
}

TEST(LaunchShape, TuningTellsItsProgressInIncreasingFractions)
{
  const SimulationParameters p = test::smallParameters(Precision::Single, 64, 64);
  const DeviceInfo device = Simulation::check(p);
  const std::vector<LaunchShape> candidates = launchCandidates(p, device);
  for (const double seconds : { std::numeric_limits<double>::infinity(), 2.5 })
  {
    std::vector<std::pair<double, std::string>> calls;
    TuningLimits limits;
    limits.seconds = seconds;
    limits.clock = fakeClock({ 1.0 });
    limits.progress = [&](double fraction, const std::string& text)
    { calls.emplace_back(fraction, text); };
    const LaunchTuning tuning = tuneLaunchShapes(p, device, limits, 32);
    // One call before each candidate, and one at the end.
    ASSERT_EQ(calls.size(), static_cast<std::size_t>(tuning.tried) + 1) << seconds;
    EXPECT_EQ(calls.front().first, 0.0);
    for (std::size_t k = 1; k < calls.size(); ++k)
      EXPECT_GT(calls[k].first, calls[k - 1].first) << k << " " << calls[k].second;
    EXPECT_EQ(calls.back().first, 1.0);
    for (int k = 0; k < tuning.tried; ++k)
      EXPECT_EQ(calls[k].second.rfind("Tuning the kernel launch: " + candidates[k].text() + ", " +
                                        std::to_string(k + 1) + " of " +
                                        std::to_string(candidates.size()) + " shapes",
                  0),
        0u)
        << calls[k].second;
    EXPECT_EQ(calls.back().second.rfind(
                "Tuned the kernel launch: " + tuning.timings.front().shape.text(), 0),
      0u)
      << calls.back().second;
  }
}

TEST(LaunchShape, AutoTuningTellsItsProgressAndAPartialSearchIsCached)
{
  const ScopedCache cache("swe-launch-cache-progress.txt");
  SimulationParameters p = test::smallParameters(Precision::Single, 64, 64);
  const DeviceInfo device = Simulation::check(p);
  // The automatic path, as the plugin's filter calls it: within its time limit, told.
  ASSERT_TRUE(launchTuningNeeded(p, device));
  std::vector<double> fractions;
  const LaunchShape tuned = resolveLaunchShape(
    p, device, [&](double fraction, const std::string&) { fractions.push_back(fraction); });
  ASSERT_GE(fractions.size(), 2u);
  EXPECT_TRUE(std::is_sorted(fractions.begin(), fractions.end()));
  EXPECT_EQ(fractions.back(), 1.0);
  EXPECT_FALSE(launchTuningNeeded(p, device));
  EXPECT_EQ(resolveLaunchShape(p, device), tuned);

  // A search cut short is cached with its mark; runs use it at once, and a whole search (what
  // swe tune stores) replaces it.
  LaunchTuning partial;
  partial.timings = { { parseLaunchShape("8x2x3"), 1e9, 512 } };
  partial.tried = 2;
  partial.planned = 6;
  storeLaunchShape(p, device, partial);
  EXPECT_NE(readFile(cache.path()).find("\t8x2x3\t1.000\tpartial 2/6\n"), std::string::npos)
    << readFile(cache.path());
  EXPECT_TRUE(cachedLaunchShapeIsPartial(p, device));
  EXPECT_FALSE(launchTuningNeeded(p, device));
  EXPECT_EQ(resolveLaunchShape(p, device).text(), "8x2x3");
  partial.tried = 6;
  storeLaunchShape(p, device, partial);
  EXPECT_EQ(readFile(cache.path()).find("partial"), readFile(cache.path()).find("partial TRIED"))
    << readFile(cache.path()); // (only the header names it)
  EXPECT_FALSE(cachedLaunchShapeIsPartial(p, device));
}
