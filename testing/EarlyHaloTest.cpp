// A second-order run split among ranks with a held dt sends each exchange interval's halo as soon
// as the tiles that hold it are updated, and trades it while the rest of the step runs
// (RankCoupling::sendEarly). On grids of many tiles, whose halo holds ghost cells of the grid's
// sides, with a fixed and an adaptive dt, in both precisions, skipping dry land on and off: the
// bits of one rank. (Overlaps that reach past a neighbour's block: ExchangeIntervalTest.cpp.)
#include "SplitRunHelpers.h"

#include <gtest/gtest.h>

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
