// A second-order run split among ranks with a held dt sends each exchange interval's halo as soon
// as the tiles that hold it are updated, and trades it while the rest of the step runs
// (RankCoupling::sendEarly). On grids of many tiles, whose halo holds ghost cells of the grid's
// sides, with a fixed and an adaptive dt, in both precisions, skipping dry land on and off, without
// speed atomics and through checkpoints: the bits of one rank; and ranks of other launch shapes
// agree to trade at the same steps. (Overlaps that reach past a neighbour's block:
// ExchangeIntervalTest.cpp.)
#include "SplitRunHelpers.h"

#include <gtest/gtest.h>

#include <vector>

namespace swe::test
{
namespace
{
SimulationParameters manyTiles(Scheme scheme, Precision precision, bool fixedDt)
{
  SimulationParameters p = splitParameters(scheme, precision, fixedDt);
  p.nx = 67;
  p.ny = 45;
  p.launch = "16x1x4"; // tiles of 12 x 4 cells
  p.exchangeInterval = 3;
  return p;
}

TEST(EarlyHalo, GivesTheBitsOfOneRankOnGridsOfManyTiles)
{
  // (MUSCL-HLLC's final stage averages in place: each tile must be updated once)
  const struct
  {
    Scheme scheme;
    Precision precision;
    bool fixedDt;
  } cases[] = { { Scheme::MusclHancock, Precision::Single, false },
    { Scheme::MusclHancock, Precision::Single, true },
    { Scheme::MusclHllc, Precision::Single, false },
    { Scheme::MusclHllc, Precision::Double, true } };
  for (const auto& c : cases)
  {
    const SimulationParameters p = manyTiles(c.scheme, c.precision, c.fixedDt);
    const InitialState initial = hillAndPool(p, false);
    for (int ranks : { 2, 3, 4 })
      expectSameBitsAsOneRank(p, initial, ranks);
  }
}

// Where each group keeps its own wave-speed partial (no speed atomics), a launch over some of the
// tiles keeps them at the tiles' places in the whole launch.
TEST(EarlyHalo, GivesTheBitsOfOneRankWithoutSpeedAtomics)
{
  for (Scheme scheme : { Scheme::MusclHancock, Scheme::MusclHllc })
  {
    SimulationParameters p = manyTiles(scheme, Precision::Single, false);
    p.buildOptions = "-DSWE_NO_SPEED_ATOMICS";
    const InitialState initial = hillAndPool(p, false);
    for (int ranks : { 2, 4 })
      expectSameBitsAsOneRank(p, initial, ranks);
  }
}

// Ranks whose launch shapes differ (as `auto` may pick on different devices) agree not to send
// early, so that they trade at the same steps: batches that end at an interval's end neither hang
// nor lose the bits.
TEST(EarlyHalo, RanksOfOtherLaunchShapesTradeAtTheSameSteps)
{
  SimulationParameters p = manyTiles(Scheme::MusclHancock, Precision::Single, true);
  const InitialState initial = hillAndPool(p, false);
  Simulation whole(p, initial);
  whole.step(3);
  whole.step(6);
  const Fields one = download(whole);
  std::vector<Fields> split(2);
  runOnThreads(2,
    [&](ThreadRankExchange& exchange)
    {
      const Partition partition = splitGrid(p.nx, p.ny, 2, exchange.rank());
      SimulationParameters mine = p;
      mine.launch = exchange.rank() == 0 ? "rows4" : "16x1x4";
      SimulationPlan plan = Simulation::plan(mine);
      splitAmongRanks(plan, partition, exchange);
      Simulation s(plan, blockOf(initial, partition.block()));
      s.step(3);
      s.step(6);
      split[static_cast<std::size_t>(exchange.rank())] = download(s);
    });
  for (int r = 0; r < 2; ++r)
    EXPECT_EQ(differingCells(
                one, p.nx, split[static_cast<std::size_t>(r)], splitGrid(p.nx, p.ny, 2, r).block()),
      0)
      << "rank " << r;
}

// Going back to checkpoints taken at an interval's end and inside one.
TEST(EarlyHalo, GoesBackToCheckpointsWithTheBitsOfOneRank)
{
  for (Scheme scheme : { Scheme::MusclHancock, Scheme::MusclHllc })
  {
    const SimulationParameters p = manyTiles(scheme, Precision::Single, false);
    const InitialState initial = hillAndPool(p, false);
    const auto run = [](Simulation& s)
    {
      s.step(6);
      const Snapshot atEnd = s.snapshot();
      s.step(7);
      s.restore(atEnd);
      s.step(4);
      const Snapshot inside = s.snapshot();
      s.step(5);
      s.restore(inside);
      s.step(6);
      return download(s);
    };
    Simulation whole(p, initial);
    const Fields one = run(whole);
    for (int ranks : { 2, 4 })
    {
      const std::vector<Fields> split = onEveryRank<Fields>(p, initial, ranks, run);
      for (int r = 0; r < ranks; ++r)
        EXPECT_EQ(
          differingCells(
            one, p.nx, split[static_cast<std::size_t>(r)], splitGrid(p.nx, p.ny, ranks, r).block()),
          0)
          << schemeName(scheme) << ", rank " << r << " of " << ranks;
    }
  }
}

// A dam break into a dry valley without rain: most tiles are left out, and the tiles that hold
// the halo are updated first all the same.
TEST(EarlyHalo, GivesTheBitsOfOneRankSkippingDryLand)
{
  SimulationParameters p = manyTiles(Scheme::MusclHancock, Precision::Single, false);
  p.rainfall = 0;
  p.losses = 0;
  p.skipDry = true;
  const InitialState initial = makeScenario(Scenario::ValleyDamBreak, p);
  for (int ranks : { 2, 3 })
    expectSameBitsAsOneRank(p, initial, ranks);
}
} // namespace
} // namespace swe::test
