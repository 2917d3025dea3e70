// The device-side clock: adaptive dt, exact landing on output times, no per-step host reads.
#include "Error.h"
#include "ReferenceSolver.h"
#include "Simulation.h"
#include "TestHelpers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

using namespace swe;

TEST(TimeStepping, AdaptiveDtLandsExactlyOnOutputTimes)
{
  for (Precision precision : { Precision::Double, Precision::Single })
  {
    SimulationParameters p = test::smallParameters(precision);
    const InitialState initial = makeScenario(Scenario::DamBreak, p);
    Simulation sim(p, initial);
    ReferenceSolver<double> twin(p, initial);
    twin.takeStepsInPairs(sim.launchShape().steps == 2); // as the launch the device resolved
    for (int k = 1; k <= 5; ++k)
    {
      const double target = 0.1 * k; // not representable in binary: landing must still be exact
      ASSERT_TRUE(sim.advanceTo(target));
      EXPECT_EQ(sim.time(), target);
      twin.advanceTo(target);
      // Same dt rule on both sides: same number of steps to each output.
      EXPECT_EQ(sim.steps(), twin.steps()) << "at t = " << target;
    }
    // dt follows the CFL rule: dt = C dx / max wave speed, about 0.45 * 0.5 / 14 s here.
    const double expected = p.cfl * p.dx / twin.maxWaveSpeed();
    EXPECT_GT(sim.lastDt(), 0.0);
    EXPECT_LE(sim.lastDt(), 1.0001 * expected);
  }
}

TEST(TimeStepping, StepsAfterALandingTakeTheirDtFromTheState)
{
  // The first advance from a fresh state queues a batch of 8 launches; a target reached within
  // the first step leaves 7 of them as no-ops. The next advance's first dt must still come from
  // the state's wave speeds (a MUSCL-HLLC no-op once published none: the next step then took
  // the whole remaining time at once and blew up). Every kind of step kernel: the GPU-shaped
  // and CPU-shaped Lax-Friedrichs kernels and the second-order sweeps and CPU-shaped kernels, in
  // several shapes (a MUSCL-Hancock no-op also carries the state over to the other copy).
  struct Case
  {
    Scheme scheme;
    const char* launch;
    Precision precision;
  };
  for (const Case c : { Case{ Scheme::LaxFriedrichs, "64x4x1", Precision::Double },
         Case{ Scheme::LaxFriedrichs, "rows4", Precision::Single },
         Case{ Scheme::MusclHllc, "64x1x16", Precision::Double },
         Case{ Scheme::MusclHllc, "16x1x3", Precision::Single },
         Case{ Scheme::MusclHancock, "64x1x16", Precision::Double },
         Case{ Scheme::MusclHancock, "16x1x3", Precision::Single },
         Case{ Scheme::MusclHllc, "rows3", Precision::Double },
         Case{ Scheme::MusclHancock, "rows3", Precision::Single } })
  {
    const Precision precision = c.precision;
    SimulationParameters p = test::smallParameters(precision);
    p.scheme = c.scheme;
    p.launch = c.launch;
    const InitialState initial = makeScenario(Scenario::DamBreak, p);
    Simulation sim(p, initial);
    ReferenceSolver<double> twin(p, initial);
    twin.takeStepsInPairs(sim.launchShape().steps == 2); // as the launch the device resolved
    const std::string where =
      schemeNames()[static_cast<int>(c.scheme)] + " " + c.launch + ", " + precisionName(precision);
    for (const double target : { 0.001, 0.3, 0.3001, 0.6 })
    {
      ASSERT_TRUE(sim.advanceTo(target)) << where;
      twin.advanceTo(target);
      EXPECT_EQ(sim.steps(), twin.steps()) << where << ", t = " << target;
    }
    const double tolerance = precision == Precision::Double ? 1e-9 : 1e-3;
    EXPECT_LT(test::maxRelativeDifference(test::download(sim), test::twinFields(twin, p.nx, p.ny)),
      tolerance)
      << where;
  }
}

TEST(TimeStepping, FixedDtShortensOnlyTheLastStep)
{
  SimulationParameters p = test::smallParameters(Precision::Double);
  p.fixedDt = 0.003;
  Simulation sim(p, makeScenario(Scenario::DamBreak, p));
  ASSERT_TRUE(sim.advanceTo(0.1));
  EXPECT_EQ(sim.time(), 0.1);
  EXPECT_EQ(sim.steps(), 34); // 33 full steps of 0.003 s, then one of 0.001 s
  // lastDt() is the step's dt before the cut: the next batch of launches is sized by it.
  EXPECT_EQ(sim.lastDt(), 0.003);
  sim.advanceTo(0.1); // already there: nothing happens
  EXPECT_EQ(sim.steps(), 34);
}

// The message of the swe::Error a call throws, or "" when it throws none.
template<class F>
std::string errorOf(F&& call)
{
  try
  {
    call();
  }
  catch (const Error& e)
  {
    return e.what();
  }
  return "";
}

TEST(TimeStepping, FixedDtBeyondTheCourantLimitStopsBeforeTheStep)
{
  // A dt ten times too long: refused before the first step, in every scheme and launch, though
  // MUSCL-Hancock's outflow cap would have kept every depth non-negative to the end.
  struct Case
  {
    Scheme scheme;
    const char* launch;
  };
  for (const Case c : { Case{ Scheme::LaxFriedrichs, "default" },
         Case{ Scheme::LaxFriedrichs, "16x2x3s2" },
         Case{ Scheme::MusclHllc, "default" },
         Case{ Scheme::MusclHancock, "default" },
         Case{ Scheme::MusclHancock, "rows3" } })
    for (Precision precision : { Precision::Double, Precision::Single })
    {
      SimulationParameters p = test::smallParameters(precision);
      p.scheme = c.scheme;
      p.launch = c.launch;
      p.fixedDt = 0.5; // 14 m/s waves on 0.5 m cells: C = 14 (28 in the second-order count)
      Simulation sim(p, makeScenario(Scenario::DamBreak, p));
      const std::string message = errorOf([&] { sim.advanceTo(5.0); });
      SCOPED_TRACE(schemeName(c.scheme) + " " + c.launch + " " + precisionName(precision));
      EXPECT_NE(message.find("the fixed time step dt = 0.5 s is too long at step 1 (t = 0 s)"),
        std::string::npos)
        << message;
      EXPECT_NE(
        message.find(isSecondOrder(c.scheme) ? "Courant number of 28" : "Courant number of 14"),
        std::string::npos)
        << message;
      EXPECT_NE(message.find("Use dt <= 0.0"), std::string::npos) << message;
      EXPECT_EQ(sim.steps(), 0);
    }
}

TEST(TimeStepping, FixedDtThatTheFlowOutgrowsStopsAtTheStepWhereItDoes)
{
  // The dam break's waves speed up from sqrt(20 g) = 14.0 m/s at rest: a dt a little below the
  // Courant limit at the start passes it some steps later. The twin, stepped with the same dt,
  // says which step first starts from a state that fast; the device stops there, with the state
  // and the clock of the step before, in one-step and two-step launches alike.
  for (const char* launch : { "default", "16x2x3s2" })
  {
    SimulationParameters p = test::smallParameters(Precision::Double);
    p.launch = launch;
    const InitialState initial = makeScenario(Scenario::DamBreak, p);
    const double atRest = ReferenceSolver<double>(p, initial).maxWaveSpeed();
    int tooFast = 0; // steps taken before the first one past the limit
    for (double courant = 0.99; courant > 0.8 && tooFast < 5; courant -= 0.01)
    {
      p.fixedDt = courant * p.dx / atRest;
      ReferenceSolver<double> twin(p, initial);
      for (tooFast = 0; twin.maxWaveSpeed() * p.fixedDt <= p.dx && tooFast < 1000; ++tooFast)
        twin.takeSteps(1);
    }
    ASSERT_GE(tooFast, 5);
    ASSERT_LT(tooFast, 1000);
    Simulation sim(p, initial);
    const std::string message = errorOf([&] { sim.advanceTo(1000 * p.fixedDt); });
    SCOPED_TRACE(launch);
    EXPECT_NE(message.find("is too long at step " + std::to_string(tooFast + 1) + " (t = "),
      std::string::npos)
      << message;
    EXPECT_EQ(sim.steps(), tooFast);
    EXPECT_NEAR(sim.time(), tooFast * p.fixedDt, 1e-9);
  }
}

TEST(TimeStepping, ProgressIsReportedAndAbortStopsCleanly)
{
  SimulationParameters p = test::smallParameters(Precision::Single);
  Simulation sim(p, makeScenario(Scenario::DamBreak, p));
  int calls = 0;
  double last = 0;
  const bool finished = sim.advanceTo(50.0,
    [&](double t)
    {
      EXPECT_GE(t, last);
      last = t;
      return ++calls < 2; // abort at the second report
    });
  EXPECT_FALSE(finished);
  EXPECT_EQ(calls, 2);
  EXPECT_GT(sim.time(), 0.0);
  EXPECT_LT(sim.time(), 50.0);
  // The state stays usable: the run can continue to a later time.
  const double resumed = sim.time() + 0.05;
  EXPECT_TRUE(sim.advanceTo(resumed));
  EXPECT_EQ(sim.time(), resumed);
}

TEST(TimeStepping, DiagnosticsMatchTheTwin)
{
  SimulationParameters p = test::smallParameters(Precision::Double);
  const InitialState initial = makeScenario(Scenario::RadialDamBreak, p);
  Simulation sim(p, initial);
  ReferenceSolver<double> twin(p, initial);
  twin.takeStepsInPairs(sim.launchShape().steps == 2);
  sim.advanceTo(0.5);
  twin.advanceTo(0.5);
  const Diagnostics d = sim.diagnostics();
  EXPECT_NEAR(d.mass, twin.mass(), 1e-12 * twin.mass());
  double maxDepth = 0;
  for (int j = 0; j < p.ny; ++j)
    for (int i = 0; i < p.nx; ++i)
      maxDepth = std::max(maxDepth, twin.h(i, j));
  EXPECT_NEAR(d.maxDepth, maxDepth, 1e-12 * maxDepth);
  EXPECT_GT(d.maxSpeed, 0.1);
}
