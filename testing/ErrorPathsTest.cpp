// Every bad input gives swe::Error with a message that names the bad value; nothing crashes.
#include "Error.h"
#include "InitialState.h"
#include "CacheWarnings.h"
#include "LaunchTuner.h"
#include "Simulation.h"
#include "StateBounds.h"
#include "Timeline.h"
#include "TestHelpers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>

using namespace swe;

namespace
{
// Runs f, expects swe::Error whose message contains every fragment.
void expectError(const std::function<void()>& f, std::initializer_list<std::string> fragments)
{
  try
  {
    f();
    ADD_FAILURE() << "expected swe::Error containing '" << *fragments.begin() << "'";
  }
  catch (const Error& e)
  {
    for (const auto& fragment : fragments)
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos)
        << "message: " << e.what() << "\nmissing: " << fragment;
  }
}

SimulationParameters valid()
{
  return test::smallParameters(Precision::Double, 16, 12);
}

void validateWith(const std::function<void(SimulationParameters&)>& change)
{
  SimulationParameters p = valid();
  change(p);
  p.validate();
}
} // namespace

TEST(ErrorPaths, BadParametersNameTheValue)
{
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  expectError([] { validateWith([](auto& p) { p.nx = 0; }); }, { "nx", "got 0" });
  expectError([] { validateWith([](auto& p) { p.ny = -3; }); }, { "ny", "got -3" });
  expectError([] { validateWith([](auto& p) { p.dx = 0; }); }, { "dx", "got 0" });
  expectError([] { validateWith([](auto& p) { p.dx = -1; }); }, { "dx", "got -1" });
  expectError([] { validateWith([](auto& p) { p.manning = -0.01; }); }, { "Manning", "got -0.01" });
  expectError(
    [] { validateWith([](auto& p) { p.cfl = 0; }); }, { "Courant", "in [0.001, 1]", "got 0" });
  expectError([] { validateWith([](auto& p) { p.cfl = 1.01; }); }, { "Courant", "got 1.01" });
  expectError([] { validateWith([](auto& p) { p.fixedDt = -0.1; }); }, { "time step", "got -0.1" });
  expectError([] { validateWith([](auto& p) { p.gravity = 0; }); }, { "gravity", "got 0" });
  for (double bad : { nan, inf, -inf })
  {
    expectError([=] { validateWith([=](auto& p) { p.dx = bad; }); }, { "dx", "finite" });
    expectError([=] { validateWith([=](auto& p) { p.manning = bad; }); }, { "Manning", "finite" });
    expectError([=] { validateWith([=](auto& p) { p.cfl = bad; }); }, { "Courant", "finite" });
    expectError(
      [=] { validateWith([=](auto& p) { p.fixedDt = bad; }); }, { "time step", "finite" });
    expectError([=] { validateWith([=](auto& p) { p.gravity = bad; }); }, { "gravity", "finite" });
  }
  EXPECT_NO_THROW(valid().validate());
}

namespace
{
void inflow(SimulationParameters& p, Side side, double discharge)
{
  p.boundaries[static_cast<int>(side)] = { BoundaryType::Inflow, discharge };
}
} // namespace

// Values that pass the sign checks but leave nothing meaningful to compute in fp32 or fp64 (a
// time step that flushes to zero, a cell mass that overflows, a run that never ends): refused
// with the value and the range that works, in every precision.
TEST(ErrorPaths, ValuesOutsideTheWorkingRangesNameTheRange)
{
  for (Precision precision : { Precision::Single, Precision::Double })
  {
    const auto with = [precision](const std::function<void(SimulationParameters&)>& change)
    {
      return [precision, change]
      {
        SimulationParameters p = test::smallParameters(precision, 16, 12);
        change(p);
        p.validate();
      };
    };
    expectError(with([](auto& p) { p.cfl = 1e-40; }), { "Courant", "in [0.001, 1]", "got 1e-40" });
    expectError(with([](auto& p) { p.cfl = 5e-4; }), { "Courant", "got 0.0005" });
    expectError(with([](auto& p) { p.dx = 1e308; }), { "dx", "[0.001, 100000] m", "got 1e+308" });
    expectError(with([](auto& p) { p.dx = 1e-30; }), { "dx", "[0.001, 100000] m", "got 1e-30" });
    expectError(with([](auto& p) { p.dx = 2e5; }), { "dx", "got 200000" });
    expectError(
      with([](auto& p) { p.gravity = 1e-40; }), { "gravity", "[0.01, 100] m/s^2", "got 1e-40" });
    expectError(with([](auto& p) { p.gravity = 1000; }), { "gravity", "got 1000" });
    expectError(with([](auto& p) { p.manning = 1e30; }), { "Manning", "[0, 1]", "got 1e+30" });
    expectError(with([](auto& p) { p.manning = 1.5; }), { "Manning", "got 1.5" });
    expectError(with([](auto& p) { inflow(p, Side::East, 1e20); }),
      { "east boundary", "at most 10000 m^2/s", "got 1e+20" });
    const auto level = [](SimulationParameters& p, double value)
    { p.boundaries[static_cast<int>(Side::North)] = Boundary(BoundaryType::FixedLevel, value); };
    expectError(with([&](auto& p) { level(p, 1e9); }),
      { "north boundary", "water level", "[-10000, 10000] m", "got 1e+09" });
    expectError(with([&](auto& p) { level(p, -1e300); }), { "water level", "got -1e+300" });
    // A point outside a georeferenced grid is named where the user put it, not relative to the
    // grid's corner (which named (-499600, -3.99975e+06) for a gauge at (400, 250)).
    expectError(with(
                  [](auto& p)
                  {
                    p.dx = 10;
                    p.origin = { 500000, 4000000 };
                    p.gauges = { { 400 - 500000, 250 - 4000000 } };
                  }),
      { "gauge 1 at (400, 250) m", "spans [500000, 500160) x [4000000, 4000120) m" });
    expectError(with([](auto& p) { p.fixedDt = 1e-9; }),
      { "fixed time step", "at least 1e-06 s", "got 1e-09" });
    // The ends of the ranges work.
    using Change = std::function<void(SimulationParameters&)>;
    for (const Change& change : { Change([](auto& p) { p.cfl = 1e-3; }),
           Change([](auto& p) { p.dx = 1e-3; }),
           Change([](auto& p) { p.dx = 1e5; }),
           Change([](auto& p) { p.gravity = 0.01; }),
           Change([](auto& p) { p.gravity = 100; }),
           Change([](auto& p) { p.manning = 1; }),
           Change([](auto& p) { inflow(p, Side::West, 1e4); }),
           Change([](auto& p) { inflow(p, Side::West, 0); }),
           Change([&](auto& p) { level(p, 1e4); }),
           Change([&](auto& p) { level(p, -1e4); }),
           Change([](auto& p) { p.fixedDt = 1e-6; }) })
      EXPECT_NO_THROW(with(change)());
  }
  // A per-cell roughness field takes the same range as the uniform coefficient.
  const SimulationParameters p = valid();
  InitialState s = makeScenario(Scenario::LakeAtRest, p);
  s.manning.assign(s.cells(), 0.03);
  s.manning[s.index(4, 2)] = 50;
  expectError([&] { s.validate(); }, { "Manning", "[0, 1]", "got 50", "cell (4, 2)" });
  s.manning[s.index(4, 2)] = 1;
  EXPECT_NO_THROW(s.validate());
  // An elevation no terrain has (a fill value no one declared as no data) is refused by name: it
  // would make every depth a damped film. The deepest and highest places on Earth are not.
  for (double bed : { 1e30, -3.4e38, 32767.0 })
  {
    InitialState t = makeScenario(Scenario::LakeAtRest, p);
    t.bed[t.index(3, 1)] = bed;
    expectError([&] { t.validate(); },
      { "elevation", "+-20000 m", "cell (3, 1)", "an undeclared no-data value?" });
    for (double real : { -10994.0, 8849.0 })
    {
      t.bed[t.index(3, 1)] = real;
      t.h[t.index(3, 1)] = real < 0 ? 1.0 : t.h[t.index(3, 1)];
      EXPECT_NO_THROW(t.validate()) << real;
    }
  }
}

// A negative inflow used to act as an outflow, silently: it is refused, with the way to let water
// leave.
TEST(ErrorPaths, NegativeInflowIsRefused)
{
  expectError([] { validateWith([](auto& p) { inflow(p, Side::West, -2); }); },
    { "west boundary", "got -2", ">= 0 m^2/s into the domain", "open" });
  SimulationParameters p = valid();
  parseBoundary("south=inflow:-0.5", p);
  expectError([&] { p.validate(); }, { "south boundary", "got -0.5" });
}

TEST(ErrorPaths, UnknownNamesAreListed)
{
  expectError([] { scenarioFromName("tsunami"); }, { "unknown scenario 'tsunami'", "dambreak" });
  expectError([] { precisionFromName("half"); }, { "unknown precision 'half'" });
  for (const auto& name : scenarioNames())
    EXPECT_EQ(scenarioName(scenarioFromName(name)), name);
}

TEST(ErrorPaths, BadInitialStatesNameTheCell)
{
  const SimulationParameters p = valid();
  InitialState s = makeScenario(Scenario::LakeAtRest, p);
  s.h[s.index(3, 5)] = 0.0;
  expectError([&] { Simulation sim(p, s); }, { "depth must be > 0", "cell (3, 5)" });
  s.h[s.index(3, 5)] = -1.0;
  expectError([&] { s.validate(); }, { "got -1", "cell (3, 5)" });
  s = makeScenario(Scenario::LakeAtRest, p);
  s.hv[s.index(7, 2)] = std::numeric_limits<double>::quiet_NaN();
  expectError([&] { Simulation sim(p, s); }, { "y-momentum is not finite", "cell (7, 2)" });
  // A flow of 1e10 m/s (a unit slip) ran at steps of 1e-10 s.
  s = makeScenario(Scenario::LakeAtRest, p);
  s.hu[s.index(5, 6)] = s.h[s.index(5, 6)] * 1e10;
  expectError([&] { Simulation sim(p, s); },
    { "the flow of the initial state at cell (5, 6) is 1e+10 m/s", "at most 1000 m/s" });
  s.hu[s.index(5, 6)] = s.h[s.index(5, 6)] * 999; // (fast, but within the bound)
  s.validate();
  s = makeScenario(Scenario::LakeAtRest, p);
  s.h.pop_back();
  expectError([&] { Simulation sim(p, s); }, { "depth has 191 values, expected 192" });
  SimulationParameters other = p;
  other.nx = 17;
  expectError([&] { Simulation sim(other, makeScenario(Scenario::LakeAtRest, p)); },
    { "16 x 12", "17 x 12" });
}

TEST(ErrorPaths, GridTooLargeIsRefusedBeforeAllocating)
{
  // The size check comes before the initial state is read or anything is allocated, so an empty
  // state of the right shape is enough here.
  SimulationParameters p = valid();
  InitialState empty;
  p.nx = empty.nx = 100000; // beyond 32-bit cell indices on any device
  p.ny = empty.ny = 100000;
  expectError([&] { Simulation sim(p, empty); }, { "grid 100000 x 100000", "32-bit" });

  // A square grid just larger than the device's memory, where 32-bit indexing still allows it.
  const DeviceInfo device = selectDevice(p.device);
  const double cells =
    static_cast<double>(device.globalMemory) / Simulation::bytesPerCell(p.precision);
  const int n = static_cast<int>(std::sqrt(cells)) + 1;
  if (static_cast<double>(n + 4) * (n + 4) > 2147483647.0)
    GTEST_SKIP() << device.name << " holds every grid that 32-bit indexing allows";
  p.nx = empty.nx = n;
  p.ny = empty.ny = n;
  const std::string grid = std::to_string(n) + " x " + std::to_string(n);
  expectError([&] { Simulation sim(p, empty); }, { "grid " + grid + " needs", "GiB" });
}

TEST(ErrorPaths, ManningFieldCountsInTheGridSizeCheck)
{
  // The largest grid that fits with a uniform coefficient (56 B a cell of device memory in fp64,
  // and on a CPU device about 104 of host memory, whichever binds first) does not with one per
  // cell (8 B more of each): the check must count the Manning field before anything is allocated.
  SimulationParameters p = valid();
  p.precision = Precision::Double;
  const DeviceInfo device = selectDevice(p.device);
  if (!device.fp64)
    GTEST_SKIP() << device.name << " has no fp64";
  const auto fits = [&](int side)
  {
    p.nx = p.ny = side;
    try
    {
      Simulation::check(p);
      return true;
    }
    catch (const Error&)
    {
      return false;
    }
  };
  int n = 1000, tooLarge = 46340; // (46340^2 cells is about 32-bit indexing's limit)
  if (fits(tooLarge))
    GTEST_SKIP() << device.name << " holds every grid that 32-bit indexing allows";
  while (tooLarge - n > 1)
  {
    const int middle = (n + tooLarge) / 2;
    (fits(middle) ? n : tooLarge) = middle;
  }
  // (On a device of 140 GiB it is 32-bit indexing that ends the fp64 grids, past 46325^2 with
  // their padding, whatever the fields: then no memory check is there to test.)
  p.nx = p.ny = tooLarge;
  try
  {
    Simulation::check(p);
  }
  catch (const Error& e)
  {
    if (std::string(e.what()).find("32-bit indexing") != std::string::npos)
      GTEST_SKIP() << device.name << " holds every grid that 32-bit indexing allows";
  }
  p.nx = p.ny = n;
  EXPECT_NO_THROW(Simulation::check(p));
  EXPECT_NO_THROW(Simulation::check(p, false));
  InitialState withManning;
  withManning.nx = withManning.ny = n;
  withManning.manning.resize(1); // only its presence is looked at before the check
  const std::string grid = std::to_string(n) + " x " + std::to_string(n);
  expectError([&] { Simulation sim(p, withManning); },
    { "grid " + grid + " needs", "with a Manning coefficient per cell", "GiB" });
}

TEST(ErrorPaths, UnknownDeviceInSimulation)
{
  SimulationParameters p = valid();
  p.device = "warp-drive";
  expectError([&] { Simulation sim(p, makeScenario(Scenario::LakeAtRest, p)); },
    { "unknown OpenCL device 'warp-drive'" });
}

TEST(ErrorPaths, KernelBuildFailureShowsTheBuildLog)
{
  SimulationParameters p = valid();
  p.buildOptions = "-DGHOST=not_a_number";
  expectError([&] { Simulation sim(p, makeScenario(Scenario::LakeAtRest, p)); },
    { "failed to build", "Build log:", "not_a_number" });
}

TEST(ErrorPaths, BlowUpNamesStepTimeAndCell)
{
  // Every scheme (MUSCL-HLLC reports a negative depth; Lax-Friedrichs, and MUSCL-Hancock, whose
  // depths stay non-negative, non-finite values).
  for (Scheme scheme : { Scheme::LaxFriedrichs, Scheme::MusclHllc, Scheme::MusclHancock })
  {
    SimulationParameters p = valid();
    p.scheme = scheme;
    p.fixedDt = 0.5; // dx = 0.5 m, waves at 20 m/s: CFL 20, unstable within a few steps
    // The check this tests is behind the fixed dt's Courant limit, which stops such a run
    // before its first step (TimeSteppingTest): switched off here.
    p.buildOptions = "-DCOURANT_LIMIT_DX=INFINITY";
    Simulation sim(p, makeScenario(Scenario::DamBreak, p));
    try
    {
      sim.advanceTo(100.0);
      ADD_FAILURE() << schemeName(scheme) << ": an unstable run must not reach its end";
    }
    catch (const Error& e)
    {
      const std::string message = e.what();
      EXPECT_NE(message.find("blew up at step "), std::string::npos) << message;
      EXPECT_NE(message.find("(t = "), std::string::npos) << message;
      EXPECT_NE(message.find("cell ("), std::string::npos) << message;
      EXPECT_NE(message.find("fixed dt 0.5 s"), std::string::npos) << message;
    }
    EXPECT_LT(sim.time(), 100.0) << schemeName(scheme);
  }
}

TEST(ErrorPaths, BlowUpInABatchsLastStepNamesThatStep)
{
  // One step a call, so the step that goes bad is the last of its batch: no later step records
  // it (the message said "step -1" before).
  for (Scheme scheme : { Scheme::LaxFriedrichs, Scheme::MusclHllc, Scheme::MusclHancock })
  {
    SimulationParameters p = valid();
    p.scheme = scheme;
    p.fixedDt = 0.5;
    p.buildOptions = "-DCOURANT_LIMIT_DX=INFINITY"; // (the Courant limit would stop it first)
    Simulation sim(p, makeScenario(Scenario::DamBreak, p));
    int calls = 0;
    try
    {
      while (calls < 1000)
      {
        ++calls;
        sim.step(1);
      }
      ADD_FAILURE() << schemeName(scheme) << ": an unstable run must not survive 1000 steps";
    }
    catch (const Error& e)
    {
      const std::string message = e.what();
      EXPECT_NE(message.find("blew up at step " + std::to_string(calls) + " "), std::string::npos)
        << schemeName(scheme) << ", call " << calls << ": " << message;
    }
  }
}

TEST(ErrorPaths, AdvancingBackwardsOrToNaNIsRefused)
{
  SimulationParameters p = valid();
  Simulation sim(p, makeScenario(Scenario::DamBreak, p));
  sim.advanceTo(0.1);
  expectError([&] { sim.advanceTo(0.05); }, { "cannot advance backwards" });
  expectError([&] { sim.advanceTo(std::nan("")); }, { "target time", "finite" });
  EXPECT_EQ(sim.time(), 0.1);
}

// Times whose steps underflow ran for ever in single precision (a step flushed to zero never
// lands); double precision took them, and is refused the same.
TEST(ErrorPaths, TimesTheClockCannotReachAreRefused)
{
  SimulationParameters p = valid();
  const InitialState initial = makeScenario(Scenario::DamBreak, p);
  Simulation sim(p, initial);
  expectError(
    [&] { sim.advanceTo(1e-39); }, { "target time must be 0 or at least 1e-30 s, got 1e-39 s" });
  expectError([&] { sim.startAdvance(1e-39); }, { "target time must be 0 or at least 1e-30 s" });
  expectError([&] { sim.advanceTo(1e10); }, { "target time must be at most 1e+09 s" });
  EXPECT_EQ(sim.time(), 0.0);
  EXPECT_EQ(sim.steps(), 0);
  sim.advanceTo(1e-30); // (the bound itself: one step)
  EXPECT_EQ(sim.time(), 1e-30);
  Timeline timeline(p, initial, 0.5);
  expectError([&] { timeline.seek(1e-39); }, { "requested time must be 0 or at least 1e-30 s" });
  expectError([&] { Timeline tiny(p, initial, 1e-40); },
    { "output interval must be at least 1e-30 s, got 1e-40 s" });
}

// A restart frame's values, checked before they are uploaded: the frame, the cell, the value.
TEST(ErrorPaths, RestartStatesNameTheCellAndValue)
{
  for (Precision precision : { Precision::Single, Precision::Double })
  {
    const SimulationParameters p = test::smallParameters(precision, 16, 12);
    Simulation sim(p, makeScenario(Scenario::DamBreak, p));
    sim.advanceTo(0.1);
    const Snapshot good = sim.snapshot();
    requireRestartState(good, "'f.vti'");
    const std::size_t cells = 16 * 12, real = good.realSize;
    const auto changed = [&](std::size_t field, int i, int j, double value)
    {
      Snapshot s = good;
      unsigned char* at = s.data.data() + (field * cells + j * 16 + i) * real;
      const float single = static_cast<float>(value);
      std::memcpy(at, real == 8 ? static_cast<const void*>(&value) : &single, real);
      return s;
    };
    expectError([&] { requireRestartState(changed(0, 3, 2, -0.5), "'f.vti'"); },
      { "'f.vti''s depth must be a finite number >= 0 m, got -0.5 m at cell (3, 2)" });
    expectError([&] { requireRestartState(changed(0, 7, 4, std::nan("")), "'f.vti'"); },
      { "got nan m at cell (7, 4)" });
    expectError([&] { requireRestartState(changed(2, 1, 9, INFINITY), "'f.vti'"); },
      { "'f.vti''s momentum must be finite", "cell (1, 9)" });
    expectError([&] { requireRestartState(changed(1, 5, 6, 1e12), "'f.vti'"); },
      { "the flow in 'f.vti' at cell (5, 6) is", "at most 1000 m/s" });
    Snapshot fastWaves = good;
    fastWaves.waveSpeed = INFINITY;
    expectError([&] { requireRestartState(fastWaves, "'f.vti'"); },
      { "'f.vti''s StepWaveSpeed must be a finite number of at most" });
  }
  requireRestartClock(2.5, 40, "'f.vti'");
  expectError([] { requireRestartClock(-5, 40, "'f.vti'"); },
    { "'f.vti''s SimulationTime must be >= 0 s, got -5" });
  expectError([] { requireRestartClock(2.5, -3, "'f.vti'"); },
    { "'f.vti''s Steps must be a whole number in [0, 2147483647], got -3" });
  expectError([] { requireRestartClock(2.5, 1.5, "'f.vti'"); }, { "got 1.5" });
  expectError([] { requireRestartClock(2.5, std::nan(""), "'f.vti'"); }, { "got nan" });
}

TEST(ErrorPaths, SnapshotsRestoreOnlyWhereTheyFit)
{
  SimulationParameters p = valid();
  Simulation first(p, makeScenario(Scenario::DamBreak, p)),
    second(p, makeScenario(Scenario::DamBreak, p));
  first.advanceTo(0.05);
  const Snapshot onDevice = first.snapshot(SnapshotPlace::Device);
  // Device memory belongs to one simulation's OpenCL context; the other is left as it was.
  expectError([&] { second.restore(onDevice); }, { "another simulation's device memory" });
  EXPECT_EQ(second.time(), 0.0);
  first.advanceTo(0.1);
  first.restore(onDevice);
  EXPECT_EQ(first.time(), 0.05);
  // A snapshot of another grid is refused whatever its place.
  SimulationParameters other = p;
  other.nx += 1;
  Simulation wider(other, makeScenario(Scenario::DamBreak, other));
  expectError([&] { wider.restore(onDevice); }, { "cannot restore", "snapshot into a" });
  expectError([&] { wider.restore(first.snapshot()); }, { "cannot restore", "snapshot into a" });
}

// A launch cache that cannot be written used to be ignored silently, so every run tuned again:
// the caller's warning handler hears of it once, with the path and the reason.
TEST(ErrorPaths, UnwritableLaunchCacheWarnsOnceWithPathAndReason)
{
  const char* before = std::getenv("SWE_LAUNCH_CACHE");
  const std::string saved = before ? before : "";
  const std::string path = "/dev/null/swe-test/launch-shapes.txt"; // under a file: never writable
  ::setenv("SWE_LAUNCH_CACHE", path.c_str(), 1);
  std::vector<std::string> warnings;
  setCacheWarningHandler([&](const std::string& message) { warnings.push_back(message); });
  const SimulationParameters p = valid();
  const DeviceInfo device = selectDevice(p.device);
  const LaunchTiming timing{ defaultLaunchShape(p, device), 1e9, 16 };
  storeLaunchShape(p, device, timing);
  storeLaunchShape(p, device, timing);
  setCacheWarningHandler(nullptr);
  if (before)
    ::setenv("SWE_LAUNCH_CACHE", saved.c_str(), 1);
  else
    ::unsetenv("SWE_LAUNCH_CACHE");
  ASSERT_EQ(warnings.size(), 1u);
  for (const std::string& fragment :
    { path, std::string("Not a directory"), std::string("SWE_LAUNCH_CACHE") })
    EXPECT_NE(warnings[0].find(fragment), std::string::npos)
      << "warning: " << warnings[0] << "\nmissing: " << fragment;
}

// Where every cell is dry and nothing flows in, dt has no scale: a step towards a time goes there
// at once, and steps without one (Simulation::step) are refused by name with the clock where it
// was. (They once took it to the largest real, and a Green-Ampt run then blew up.)
TEST(ErrorPaths, StepsOnADryGridWithoutATimeAreRefused)
{
  for (Precision precision : { Precision::Single, Precision::Double })
    for (Scheme scheme : { Scheme::MusclHancock, Scheme::MusclHllc })
    {
      SimulationParameters p = test::smallParameters(precision, 20, 12);
      p.scheme = scheme;
      const InitialState dry(p.nx, p.ny);
      Simulation stepped(p, dry);
      try
      {
        stepped.step(3);
        FAIL() << "no error";
      }
      catch (const Error& e)
      {
        EXPECT_NE(std::string(e.what()).find("nothing moves at t = 0 s"), std::string::npos)
          << e.what();
      }
      EXPECT_EQ(stepped.time(), 0.0);
      EXPECT_EQ(stepped.steps(), 0);
      Simulation advanced(p, dry);
      advanced.advanceTo(10.0);
      EXPECT_EQ(advanced.time(), 10.0);
      EXPECT_EQ(advanced.steps(), 1);
    }
}
