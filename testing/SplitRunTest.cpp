// A run split among ranks (solver/ranks/Partition.h) gives the bits of the same run on one rank, at
// every output time: every scheme, both precisions, adaptive and fixed dt, terrain with wet and
// dry cells, every boundary type, rain and losses, blocks that do not divide the grid evenly and
// blocks meeting at corners. The ranks are threads here (solver/ranks/ThreadRanks.h); under MPI the
// same engine calls run in processes.
#include "Error.h"
#include "SplitRunHelpers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

namespace swe::test
{
namespace
{
class SplitRun : public ::testing::TestWithParam<SplitCase>
{
};

TEST_P(SplitRun, GivesTheBitsOfOneRankOnTwoThreeAndFourRanks)
{
  const SplitCase c = GetParam();
  const SimulationParameters p = splitParameters(c.scheme, c.precision, c.fixedDt);
  // (Lax-Friedrichs has no bed terms: a flat bed.)
  const InitialState initial = hillAndPool(p, c.scheme == Scheme::LaxFriedrichs);
  for (int ranks : { 2, 3, 4 })
    expectSameBitsAsOneRank(p, initial, ranks);
}

INSTANTIATE_TEST_SUITE_P(EverySchemeAndPrecision,
  SplitRun,
  ::testing::Values(SplitCase{ Scheme::LaxFriedrichs, Precision::Single, false },
    SplitCase{ Scheme::LaxFriedrichs, Precision::Double, true },
    SplitCase{ Scheme::MusclHllc, Precision::Single, false },
    SplitCase{ Scheme::MusclHllc, Precision::Double, true },
    SplitCase{ Scheme::MusclHancock, Precision::Single, false },
    SplitCase{ Scheme::MusclHancock, Precision::Double, false },
    SplitCase{ Scheme::MusclHancock, Precision::Single, true }),
  caseName);

// The water balance's Inflow field (the grid's sides, not the blocks') is one rank's, bit for bit:
// what crosses a block's inner side is not the run's inflow.
TEST(SplitRunBalance, TheSidesInflowIsOneRanksBits)
{
  for (Scheme scheme : { Scheme::LaxFriedrichs, Scheme::MusclHllc, Scheme::MusclHancock })
  {
    SimulationParameters p = splitParameters(scheme, Precision::Double, false);
    p.losses = 0; // (the balance does not count a constant loss)
    p.waterBalance = true;
    const InitialState initial = hillAndPool(p, scheme == Scheme::LaxFriedrichs);
    for (int ranks : { 2, 3 })
      expectSameBitsAsOneRank(
        p, initial, ranks, { Field::Inflow, Field::MaxDepth, Field::Duration });
  }
}

// Skipping dry land in a split run (the halo sides' tiles forced): the dam break into the dry
// valley, with a point source that floods across a block's edge, split on 2 and 3 ranks, without
// speed atomics too, gives the bits of one rank that updates every cell.
TEST(SplitRunSkipDry, ADryValleyGivesTheBitsOfOneRankUpdatingEveryCell)
{
  for (const char* options : { "", "-DSWE_NO_SPEED_ATOMICS" })
  {
    SimulationParameters p = smallParameters(Precision::Single, 61, 41);
    p.dx = 13.0;
    p.scheme = Scheme::MusclHancock;
    p.launch = "16x1x4";
    p.buildOptions = options;
    p.manning = 0.03;
    // (walls and an open side, which bring no water, so that only the halo makes the blocks'
    // inner tiles take it)
    p.boundaries[static_cast<int>(Side::East)] = { BoundaryType::Open, 0.0 };
    p.sources = { { 28.5 * 13.0, 20.5 * 13.0, { { 0, 3.0 }, { 1e6, 3.0 } } } };
    p.floodMaps = true;
    const InitialState initial = makeScenario(Scenario::ValleyDamBreak, p);
    const std::vector<double> times = { 10.0, 30.0 };
    SimulationParameters everyCell = p;
    everyCell.skipDry = false;
    Simulation whole(everyCell, initial);
    const Output one = runTo(whole, times);
    p.skipDry = true;
    for (int ranks : { 2, 3 })
    {
      const std::vector<Output> split = runSplit(p, initial, ranks, times, kMaps);
      for (int r = 0; r < ranks; ++r)
      {
        const Block b = splitGrid(p.nx, p.ny, ranks, r).block();
        const Output& mine = split[static_cast<std::size_t>(r)];
        for (std::size_t k = 0; k < times.size(); ++k)
        {
          EXPECT_EQ(mine.steps[k], one.steps[k]) << options << " rank " << r << " of " << ranks;
          EXPECT_EQ(differingCells(one.fields[k], p.nx, mine.fields[k], b), 0)
            << options << " rank " << r << " of " << ranks << " at t = " << times[k];
          EXPECT_EQ(differingCells(one.maps[k], p.nx, mine.maps[k], b), 0)
            << options << " maps, rank " << r << " of " << ranks << " at t = " << times[k];
        }
      }
    }
  }
}

// MUSCL-Hancock takes a step again, capped, on every rank when a depth went below zero on any
// (as on one rank, where the whole grid takes it again): a rough state that needs it (as in
// SecondOrderTest), split so that the ranks without such a cell must follow the others.
TEST(SplitRunRedo, StepsTakenAgainOnOneRankAreTakenAgainOnAll)
{
  SimulationParameters p = smallParameters(Precision::Double, 12, 12);
  p.scheme = Scheme::MusclHancock;
  p.dx = 0.1;
  p.cfl = 1.0;
  p.launch = "default";
  p.floodMaps = true; // (folded after the step taken again)
  const InitialState initial = roughState(192);
  Simulation whole(p, initial);
  whole.step(30);
  ASSERT_GT(whole.redoneSteps(), 0);
  for (int ranks : { 2, 3, 4 })
    expectSameBitsAsOneRank(p, initial, ranks);
}

// Point sources and sinks in different ranks' blocks, an inflow on a stretch of the west side and
// a level on a stretch of the north side: where each acts is the whole grid's, on any rank.
TEST(SplitRunForcing, PointSourcesAndStretchesActWhereOneRanksDo)
{
  for (Scheme scheme : { Scheme::MusclHllc, Scheme::MusclHancock })
  {
    SimulationParameters p = splitParameters(scheme, Precision::Double, false);
    const double width = p.nx * p.dx, height = p.ny * p.dx;
    p.sources = { { 0.2 * width, 0.3 * height, { { 0, 0.002 }, { 1, 0.004 } } },
      { 0.8 * width, 0.7 * height, { { 0, 0.003 }, { 1, 0.001 } } },
      { 0.6 * width, 0.2 * height, { { 0, -0.001 }, { 1, -0.001 } } } };
    p.boundaries[static_cast<int>(Side::West)].from = 0.6 * height;
    p.boundaries[static_cast<int>(Side::West)].to = 0.9 * height;
    p.boundaries[static_cast<int>(Side::North)].from = 0.1 * width;
    p.boundaries[static_cast<int>(Side::North)].to = 0.7 * width;
    const InitialState initial = hillAndPool(p, false);
    for (int ranks : { 2, 3, 4 })
      expectSameBitsAsOneRank(p, initial, ranks);
  }
}

// Gauges in every rank's block (and on the cells where blocks meet): each rank's record is one
// rank's, bit for bit, every step and at an interval, and after a checkpoint restored.
TEST(SplitRunGauges, EveryRanksRecordIsOneRanks)
{
  for (Scheme scheme : { Scheme::MusclHllc, Scheme::MusclHancock })
    for (double interval : { 0.0, 0.05 })
    {
      SimulationParameters p = splitParameters(scheme, Precision::Double, false);
      p.gaugeInterval = interval;
      const double width = p.nx * p.dx, height = p.ny * p.dx;
      for (double fx : { 0.05, 0.49, 0.51, 0.95 })
        for (double fy : { 0.1, 0.5, 0.9 })
          p.gauges.push_back({ fx * width, fy * height });
      const InitialState initial = hillAndPool(p, false);
      const auto record = [](Simulation& s)
      {
        s.advanceTo(0.3);
        const Snapshot at = s.snapshot();
        s.advanceTo(0.6);
        s.restore(at);
        s.advanceTo(0.7);
        return s.gauges();
      };
      Simulation whole(p, initial);
      const GaugeRecord one = record(whole);
      ASSERT_GT(one.time.size(), 5u);
      for (int ranks : { 2, 3, 4 })
      {
        const std::vector<GaugeRecord> split = onEveryRank<GaugeRecord>(p, initial, ranks, record);
        for (int r = 0; r < ranks; ++r)
        {
          const GaugeRecord& mine = split[static_cast<std::size_t>(r)];
          EXPECT_EQ(mine.step, one.step) << "rank " << r << " of " << ranks;
          EXPECT_EQ(std::memcmp(mine.time.data(), one.time.data(), one.time.size() * 8), 0);
          ASSERT_EQ(mine.values.size(), one.values.size());
          EXPECT_EQ(std::memcmp(mine.values.data(), one.values.data(), one.values.size() * 8), 0)
            << schemeName(scheme) << ", interval " << interval << ", rank " << r << " of " << ranks;
        }
      }
    }
}

// A step's halo and the wave-speed maximum its dt needs are traded in one round trip to the host:
// no agreement on the maximum of its own (MUSCL-Hancock still agrees on a step taken again, once
// a step; MUSCL-HLLC trades a halo before each of its two stages).
TEST(SplitRunRoundTrips, AStepTradesItsHaloAndItsMaximumInOneRoundTrip)
{
  struct Expected
  {
    Scheme scheme;
    std::int64_t halos, agreements; // per step
  };
  for (const Expected e : { Expected{ Scheme::LaxFriedrichs, 1, 0 },
         Expected{ Scheme::MusclHllc, 2, 0 },
         Expected{ Scheme::MusclHancock, 1, 1 } })
  {
    const SimulationParameters p = splitParameters(e.scheme, Precision::Double, false);
    const InitialState initial = hillAndPool(p, e.scheme == Scheme::LaxFriedrichs);
    const int ranks = 2, steps = 10;
    const std::vector<SplitSeconds> counted = onEveryRank<SplitSeconds>(p,
      initial,
      ranks,
      [&](Simulation& s)
      {
        s.step(1);
        const SplitSeconds before = s.splitSeconds();
        s.step(steps);
        const SplitSeconds after = s.splitSeconds();
        return SplitSeconds{
          0, 0, after.halos - before.halos, after.agreements - before.agreements, 0
        };
      });
    for (int r = 0; r < ranks; ++r)
    {
      const SplitSeconds& c = counted[static_cast<std::size_t>(r)];
      EXPECT_EQ(c.halos, e.halos * steps) << schemeName(e.scheme) << ", rank " << r;
      EXPECT_EQ(c.agreements, e.agreements * steps) << schemeName(e.scheme) << ", rank " << r;
    }
  }
}

// A bad value in one rank's block (a depth that is not a number) fails every rank with that
// rank's message, and none waits for ever.
TEST(SplitRunErrors, AnErrorOnOneRankFailsEveryRankWithItsMessage)
{
  const SimulationParameters p = splitParameters(Scheme::MusclHancock, Precision::Single, false);
  InitialState initial = hillAndPool(p, false);
  const int ranks = 3;
  const Block last = splitGrid(p.nx, p.ny, ranks, ranks - 1).block();
  initial.h[initial.index(last.x0 + 1, last.y0 + 1)] = std::nan("");
  std::vector<std::string> messages(ranks);
  runOnThreads(ranks,
    [&](ThreadRankExchange& exchange)
    {
      const int r = exchange.rank();
      const Partition partition = splitGrid(p.nx, p.ny, ranks, r);
      try
      {
        SimulationPlan plan = Simulation::plan(p);
        splitAmongRanks(plan, partition, exchange);
        Simulation s(plan, blockOf(initial, partition.block()));
        messages[static_cast<std::size_t>(r)] = "no error";
      }
      catch (const Error& e)
      {
        messages[static_cast<std::size_t>(r)] = e.what();
      }
    });
  for (const std::string& m : messages)
  {
    EXPECT_EQ(m, messages.front());
    EXPECT_NE(m.find("rank 2: "), std::string::npos) << m;
    EXPECT_NE(m.find("depth"), std::string::npos) << m;
    // The cell as the whole grid numbers it.
    const std::string cell =
      "cell (" + std::to_string(last.x0 + 1) + ", " + std::to_string(last.y0 + 1) + ")";
    EXPECT_NE(m.find(cell), std::string::npos) << m;
  }
}

TEST(Partition, BlocksTileTheGridAndHalosPair)
{
  for (int ranks : { 1, 2, 3, 4, 6, 7 })
  {
    std::vector<std::vector<HaloLink>> links;
    for (int r = 0; r < ranks; ++r)
      links.push_back(splitGrid(23, 17, ranks, r).haloLinks());
    // What a rank sends a peer is, cell for cell, what the peer receives from it.
    for (int r = 0; r < ranks; ++r)
      for (const HaloLink& l : links[static_cast<std::size_t>(r)])
      {
        const Block mine = splitGrid(23, 17, ranks, r).block();
        const Block theirs = splitGrid(23, 17, ranks, l.peer).block();
        bool found = false;
        for (const HaloLink& back : links[static_cast<std::size_t>(l.peer)])
          if (back.peer == r)
          {
            found = true;
            ASSERT_EQ(back.receive.size(), l.send.size());
            for (std::size_t k = 0; k < l.send.size(); ++k)
            {
              EXPECT_EQ(l.send[k].i0 + mine.x0, back.receive[k].i0 + theirs.x0);
              EXPECT_EQ(l.send[k].j0 + mine.y0, back.receive[k].j0 + theirs.y0);
              EXPECT_EQ(l.send[k].nx, back.receive[k].nx);
              EXPECT_EQ(l.send[k].ny, back.receive[k].ny);
            }
          }
        EXPECT_TRUE(found) << "rank " << r << " sends to " << l.peer << ", which does not answer";
      }
  }
}

// A rank builds its block of a scenario alone, the same values as the whole grid's there.
TEST(Partition, AScenariosBlockIsTheWholeGridsCells)
{
  const SimulationParameters p = smallParameters(Precision::Double, 41, 30);
  for (Scenario scenario : { Scenario::RadialDamBreak, Scenario::EmergedBump })
  {
    const InitialState whole = makeScenario(scenario, p);
    for (int r = 0; r < 4; ++r)
    {
      const Block b = splitGrid(p.nx, p.ny, 4, r).block();
      const InitialState part = makeScenario(scenario, p, b.x0, b.y0, b.nx, b.ny);
      const InitialState cut = blockOf(whole, b);
      EXPECT_EQ(part.h, cut.h) << "rank " << r;
      EXPECT_EQ(part.bed, cut.bed) << "rank " << r;
    }
  }
}

TEST(Partition, RefusesBlocksTooSmallOrNotTiling)
{
  try
  {
    splitGrid(3, 3, 4, 0);
    FAIL() << "a 3 x 3 grid on 4 ranks was accepted";
  }
  catch (const Error& e)
  {
    EXPECT_NE(std::string(e.what()).find("at least 2 x 2"), std::string::npos) << e.what();
  }
  Partition gap = splitGrid(20, 10, 2, 0);
  gap.blocks[1].nx -= 1;
  EXPECT_THROW(gap.validate(), Error);
}
} // namespace
} // namespace swe::test
