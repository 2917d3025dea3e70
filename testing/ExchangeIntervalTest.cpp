// Halos traded every k steps (SimulationParameters::exchangeInterval): each rank also updates k
// steps' reach of its neighbours' cells and holds dt over the interval, so a run split among 2, 3
// or 4 ranks gives the bits of the same run on one rank, with every scheme, precision, boundary
// type and forcing, the overlap reaching past a neighbour's block included; it trades its halo
// once an interval; and the held dt keeps the water where it was and close to the run that
// chooses dt every step, or stops with a message that names the interval.
#include "AnalyticSolutions.h"
#include "Error.h"
#include "SplitRunHelpers.h"
#include "WaterBalance.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

namespace swe::test
{
namespace
{
class ExchangeInterval : public ::testing::TestWithParam<SplitCase>
{
};

TEST_P(ExchangeInterval, GivesTheBitsOfOneRankOnTwoThreeAndFourRanks)
{
  const SplitCase c = GetParam();
  SimulationParameters p = splitParameters(c.scheme, c.precision, c.fixedDt);
  p.exchangeInterval = c.interval;
  const InitialState initial = hillAndPool(p, c.scheme == Scheme::LaxFriedrichs);
  for (int ranks : { 2, 3, 4 })
    expectSameBitsAsOneRank(p, initial, ranks);
}

// (MUSCL-HLLC at 5 steps reaches 20 cells, past the 14-cell blocks of 3 ranks.)
INSTANTIATE_TEST_SUITE_P(EverySchemeAndPrecision,
  ExchangeInterval,
  ::testing::Values(SplitCase{ Scheme::LaxFriedrichs, Precision::Single, false, 4 },
    SplitCase{ Scheme::LaxFriedrichs, Precision::Double, true, 3 },
    SplitCase{ Scheme::MusclHllc, Precision::Single, false, 5 },
    SplitCase{ Scheme::MusclHllc, Precision::Double, true, 2 },
    SplitCase{ Scheme::MusclHancock, Precision::Single, false, 4 },
    SplitCase{ Scheme::MusclHancock, Precision::Double, false, 7 },
    SplitCase{ Scheme::MusclHancock, Precision::Single, true, 3 }),
  caseName);

// Point sources, an inflow stretch, a level stretch, Green-Ampt (whose cumulative infiltration
// the halo carries too), gauges and the water balance, with an interval.
TEST(ExchangeIntervalForcing, SourcesStretchesInfiltrationAndBalanceActAsOnOneRank)
{
  for (Scheme scheme : { Scheme::MusclHllc, Scheme::MusclHancock })
  {
    SimulationParameters p = splitParameters(scheme, Precision::Double, false);
    p.exchangeInterval = 3;
    const double width = p.nx * p.dx, height = p.ny * p.dx;
    p.sources = { { 0.2 * width, 0.3 * height, { { 0, 0.002 }, { 1, 0.004 } } },
      { 0.52 * width, 0.7 * height, { { 0, 0.003 }, { 1, 0.001 } } } };
    p.boundaries[static_cast<int>(Side::West)].from = 0.6 * height;
    p.boundaries[static_cast<int>(Side::West)].to = 0.9 * height;
    p.boundaries[static_cast<int>(Side::North)].from = 0.1 * width;
    p.boundaries[static_cast<int>(Side::North)].to = 0.7 * width;
    p.losses = 0;
    p.infiltration.conductivity = 30;
    p.infiltration.suction = 110;
    p.infiltration.deficit = 0.3;
    p.waterBalance = true;
    for (double fx : { 0.05, 0.49, 0.51, 0.95 })
      p.gauges.push_back({ fx * width, 0.5 * height });
    const InitialState initial = hillAndPool(p, false);
    for (int ranks : { 2, 3 })
      expectSameBitsAsOneRank(
        p, initial, ranks, { Field::Inflow, Field::Infiltration, Field::MaxDepth });
  }
}

// The same forcing on one rank with an interval (the held dt, MUSCL-Hancock capped at every step
// and its sides' fluxes folded as capped): the water balance closes.
TEST(ExchangeIntervalForcing, TheBalanceClosesWithAHeldDt)
{
  for (Scheme scheme : { Scheme::MusclHllc, Scheme::MusclHancock })
  {
    SimulationParameters p = splitParameters(scheme, Precision::Double, false);
    p.exchangeInterval = 3;
    p.losses = 0;
    p.waterBalance = true;
    const InitialState initial = hillAndPool(p, false);
    Simulation sim(p, initial);
    const double start = closingInitialVolume(sim.downloadState(), p);
    sim.advanceTo(0.7);
    const WaterBalance b = waterBalanceOf(sim.downloadState(), p, start);
    EXPECT_GT(b.outflow, 0.0) << schemeName(scheme);
    EXPECT_LE(std::fabs(b.relativeError()), 1e-12) << schemeName(scheme);
  }
}

// Skipping dry land with an interval: the dam break into the dry valley, with a point source
// that floods across a block's edge, on 2 and 3 ranks with small tiles (the overlap reaches
// several tiles deep, each forced), gives the bits of one rank updating every cell.
TEST(ExchangeIntervalSkipDry, ADryValleyGivesTheBitsOfOneRankUpdatingEveryCell)
{
  SimulationParameters p = smallParameters(Precision::Single, 61, 41);
  p.dx = 13.0;
  p.scheme = Scheme::MusclHancock;
  p.launch = "16x1x4";
  p.manning = 0.03;
  p.exchangeInterval = 6;
  p.floodMaps = true;
  p.boundaries[static_cast<int>(Side::East)] = { BoundaryType::Open, 0.0 };
  p.sources = { { 28.5 * 13.0, 20.5 * 13.0, { { 0, 3.0 }, { 1e6, 3.0 } } } };
  const InitialState initial = makeScenario(Scenario::ValleyDamBreak, p);
  SimulationParameters everyCell = p;
  everyCell.skipDry = false;
  Simulation whole(everyCell, initial);
  const std::vector<double> times = { 10.0, 30.0 };
  const Output one = runTo(whole, times);
  for (int ranks : { 2, 3 })
  {
    const std::vector<Output> split = runSplit(p, initial, ranks, times, kMaps);
    for (int r = 0; r < ranks; ++r)
    {
      const Block b = splitGrid(p.nx, p.ny, ranks, r).block();
      for (std::size_t k = 0; k < times.size(); ++k)
        EXPECT_EQ(
          differingCells(one.fields[k], p.nx, split[static_cast<std::size_t>(r)].fields[k], b), 0)
          << "rank " << r << " of " << ranks << " at t = " << times[k];
    }
  }
}

// One halo a step without an interval (MUSCL-HLLC one a stage), one an interval with it, and
// the wave speeds agreed in the same round trip: no agreement of their own, and no MUSCL-Hancock
// step taken again (its capped pass takes every step). The second-order schemes' halo goes out
// early, while the step before the interval runs, so their wave speeds take a round trip of their
// own (EarlyHaloTest.cpp).
TEST(ExchangeIntervalRoundTrips, AnIntervalTradesOneHaloAndAgreesAtMostOnce)
{
  for (Scheme scheme : { Scheme::LaxFriedrichs, Scheme::MusclHllc, Scheme::MusclHancock })
  {
    SimulationParameters p = splitParameters(scheme, Precision::Double, true);
    p.exchangeInterval = 4;
    const InitialState initial = hillAndPool(p, scheme == Scheme::LaxFriedrichs);
    const int intervals = 3;
    const std::vector<SplitSeconds> counted = onEveryRank<SplitSeconds>(p,
      initial,
      2,
      [&](Simulation& s)
      {
        s.step(p.exchangeInterval);
        const SplitSeconds before = s.splitSeconds();
        s.step(intervals * p.exchangeInterval);
        const SplitSeconds after = s.splitSeconds();
        return SplitSeconds{
          0, 0, after.halos - before.halos, after.agreements - before.agreements, 0
        };
      });
    for (const SplitSeconds& c : counted)
    {
      EXPECT_EQ(c.halos, intervals) << schemeName(scheme);
      EXPECT_EQ(c.agreements, scheme == Scheme::LaxFriedrichs ? 0 : intervals)
        << schemeName(scheme);
    }
  }
}

double storedVolume(const Fields& f)
{
  return std::accumulate(f.h.begin(), f.h.end(), 0.0);
}

// In a closed basin, a held dt keeps the water (fp64, to round-off) and its depths stay within a
// few millimetres of the run that chooses dt every step.
TEST(ExchangeIntervalHeldDt, KeepsTheWaterAndStaysCloseToADtEveryStep)
{
  for (Scheme scheme : { Scheme::MusclHllc, Scheme::MusclHancock })
  {
    SimulationParameters p = smallParameters(Precision::Double, 41, 30);
    p.scheme = scheme;
    p.launch = "default";
    p.manning = 0.02;
    const InitialState initial = hillAndPool(p, false);
    Simulation everyStep(p, initial);
    p.exchangeInterval = 8;
    Simulation held(p, initial);
    const double before = storedVolume(download(everyStep));
    everyStep.advanceTo(1.0);
    held.advanceTo(1.0);
    const Fields a = download(everyStep), b = download(held);
    EXPECT_NEAR(storedVolume(b), before, 1e-10 * before) << schemeName(scheme);
    double largest = 0;
    for (std::size_t k = 0; k < a.h.size(); ++k)
      largest = std::max(largest, std::fabs(a.h[k] - b.h[k]));
    EXPECT_LT(largest, 5e-3) << schemeName(scheme);
    EXPECT_GT(largest, 0.0) << schemeName(scheme) << ": the interval changed nothing";
  }
}

// Waves that outgrow the held dt past the Courant limit stop the run, on one rank and on every
// rank of a split run, with a message that names the interval.
TEST(ExchangeIntervalHeldDt, WavesPastTheCourantLimitStopTheRunNamingTheInterval)
{
  SimulationParameters p = smallParameters(Precision::Double, 40, 20);
  p.scheme = Scheme::MusclHancock;
  p.launch = "default";
  p.cfl = 1.0;
  p.exchangeInterval = 64;
  InitialState initial(p.nx, p.ny);
  for (int j = 0; j < p.ny; ++j)
    for (int i = 0; i < p.nx; ++i)
      initial.h[initial.index(i, j)] = i < p.nx / 2 ? 2.0 : 0.1;
  const auto expectStopped = [](const std::string& message)
  {
    EXPECT_NE(message.find("held over the exchange interval"), std::string::npos) << message;
    EXPECT_NE(message.find("now 64"), std::string::npos) << message;
  };
  try
  {
    Simulation alone(p, initial);
    alone.advanceTo(5.0);
    ADD_FAILURE() << "the waves outgrew the held dt unnoticed";
  }
  catch (const Error& e)
  {
    expectStopped(e.what());
  }
  const std::vector<std::string> messages = onEveryRank<std::string>(p,
    initial,
    2,
    [&](Simulation& s)
    {
      try
      {
        s.advanceTo(5.0);
      }
      catch (const Error& e)
      {
        return std::string(e.what());
      }
      return std::string("no error");
    });
  for (const std::string& m : messages)
    expectStopped(m);
}

// The diagnostics count each cell once: a rank's overlap is its neighbours' to count.
TEST(ExchangeIntervalOwnedCells, DiagnosticsCountEachCellOnce)
{
  SimulationParameters p = splitParameters(Scheme::MusclHancock, Precision::Double, false);
  p.exchangeInterval = 6;
  const InitialState initial = hillAndPool(p, false);
  Simulation alone(p, initial);
  alone.advanceTo(0.5);
  const Diagnostics one = alone.diagnostics();
  for (int ranks : { 2, 4 })
    for (const Diagnostics& d : onEveryRank<Diagnostics>(p,
           initial,
           ranks,
           [](Simulation& s)
           {
             s.advanceTo(0.5);
             return s.diagnostics();
           }))
    {
      EXPECT_NEAR(d.mass, one.mass, 1e-12 * one.mass) << ranks << " ranks";
      EXPECT_EQ(d.maxDepth, one.maxDepth) << ranks << " ranks";
      EXPECT_EQ(d.maxSpeed, one.maxSpeed) << ranks << " ranks";
    }
}

// Cells outside the owned ones (an overlap) never choose dt: a fast jet there leaves the first
// step's dt as it is without it.
TEST(ExchangeIntervalOwnedCells, CellsNotOwnedDoNotChooseDt)
{
  for (Scheme scheme : { Scheme::LaxFriedrichs, Scheme::MusclHllc, Scheme::MusclHancock })
    for (const char* launch : { "default", "rows8" })
    {
      SimulationParameters p = smallParameters(Precision::Double, 40, 24);
      p.scheme = scheme;
      p.launch = launch;
      p.ownedI0 = 4;
      p.ownedJ0 = 0;
      p.ownedNx = p.nx - 4;
      p.ownedNy = p.ny;
      const InitialState still = stillWater(p, 1.0);
      InitialState jet = still;
      for (int j = 0; j < p.ny; ++j)
        jet.hu[jet.index(0, j)] = 30.0;
      Simulation a(p, still), b(p, jet);
      a.step(1);
      b.step(1);
      EXPECT_EQ(a.time(), b.time()) << schemeName(scheme) << " " << launch;
    }
}

// The dam breaks of SWASHES (L = 10 m, dam at 5 m, h_l = 5 mm, t = 6 s, 200 cells), wet and into
// dry land: a dt held over 16 steps keeps the L1 error against the exact solution within 10 % of
// the dt chosen every step (measured: the same to 3 digits, 1.22e-4 to 1.32e-4, on PoCL).
double damBreakL1(Scenario scenario, Scheme scheme, int interval)
{
  SimulationParameters p = smallParameters(Precision::Double, 200, 4);
  p.dx = 10.0 / p.nx;
  p.scheme = scheme;
  p.exchangeInterval = interval;
  Simulation sim(p, makeScenario(scenario, p));
  sim.advanceTo(6.0);
  std::vector<double> h(static_cast<std::size_t>(p.nx) * p.ny);
  sim.download(Field::Depth, h.data());
  double l1 = 0;
  for (int i = 0; i < p.nx; ++i)
  {
    const double x = (i + 0.5) * p.dx;
    const double exact = scenario == Scenario::RitterDryDamBreak
                           ? ritterDepth(x, 6.0, 5.0, 0.005, p.gravity)
                           : stokerDepth(x, 6.0, 5.0, 0.005, 0.001, p.gravity);
    l1 += std::fabs(h[static_cast<std::size_t>(i)] - exact) * p.dx;
  }
  return l1;
}

TEST(ExchangeIntervalHeldDt, KeepsTheDamBreaksAccuracy)
{
  for (Scenario scenario : { Scenario::StokerWetDamBreak, Scenario::RitterDryDamBreak })
    for (Scheme scheme : { Scheme::MusclHllc, Scheme::MusclHancock })
    {
      const double everyStep = damBreakL1(scenario, scheme, 1);
      const double held = damBreakL1(scenario, scheme, 16);
      EXPECT_LT(held, 1.1 * everyStep) << schemeName(scheme) << " " << scenarioName(scenario);
      EXPECT_LT(held, 2e-4) << schemeName(scheme) << " " << scenarioName(scenario);
    }
}

TEST(ExchangeIntervalParameters, RefusesIntervalsOutOfRange)
{
  SimulationParameters p = smallParameters(Precision::Single);
  for (int interval : { 0, -3, kMaxExchangeInterval + 1 })
  {
    p.exchangeInterval = interval;
    try
    {
      p.validate();
      ADD_FAILURE() << "interval " << interval << " was accepted";
    }
    catch (const Error& e)
    {
      EXPECT_NE(std::string(e.what()).find(
                  "exchange interval must be in [1, 64] steps (a whole number), got " +
                  std::to_string(interval)),
        std::string::npos)
        << e.what();
    }
  }
}

// A block's compute block reaches the overlap past its inner sides only, and its halo links
// pair: what one rank sends is what the other receives, cell for cell.
TEST(ExchangeIntervalPartition, ComputeBlocksReachIntoNeighboursOnly)
{
  Partition p = splitGrid(41, 30, 4, 0);
  p.overlap = 6;
  const Block b = p.block(), c = p.computeBlock();
  EXPECT_EQ(c.x0, 0);
  EXPECT_EQ(c.y0, 0);
  EXPECT_EQ(c.nx, b.nx + 6);
  EXPECT_EQ(c.ny, b.ny + 6);
  p.overlap = 100;
  EXPECT_EQ(p.computeBlock().nx, 41);
  EXPECT_EQ(p.computeBlock().ny, 30);
}
} // namespace
} // namespace swe::test
