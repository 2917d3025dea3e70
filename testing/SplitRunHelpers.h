#pragma once
// What the tests of runs split among ranks share (SplitRunTest.cpp, ExchangeIntervalTest.cpp): a
// small terrain with wet and dry cells, parameters that exercise every boundary type, and the
// comparison of every rank's block with the same run on one rank, bit for bit. The ranks are
// threads (solver/ranks/ThreadRanks.h).
#include "Partition.h"
#include "Simulation.h"
#include "TestHelpers.h"
#include "ThreadRanks.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace swe::test
{
// A hill that stands out of a lake (dry cells at its top), a deeper pool in one corner, and a
// gentle slope: flow across every side and around the hill.
InitialState hillAndPool(const SimulationParameters& p, bool flat);

// Inflow, open, wall and level sides, rain, losses and flood maps on a 41 x 30 grid.
SimulationParameters splitParameters(Scheme scheme, Precision precision, bool fixedDt);

struct Output
{
  std::vector<Fields> fields; // at each output time
  std::vector<Fields> maps;   // the same for three kept fields (the flood maps': Kept)
  std::vector<std::int64_t> steps;
};

// The kept fields an Output holds beside h, hu, hv.
using Kept = std::array<Field, 3>;
constexpr Kept kMaps = { Field::MaxDepth, Field::ArrivalTime, Field::Duration };

Output runTo(Simulation& s, const std::vector<double>& times, const Kept& kept = kMaps);

// Cells of the block where rank's fields and the whole grid's are not the same bits.
int differingCells(const Fields& whole, int gridNx, const Fields& part, const Block& b);

// What run(simulation) gives on each rank of the split run, one thread per rank (runOnThreads: a
// rank's exception reaches the caller).
template<class Result, class Run>
std::vector<Result> onEveryRank(const SimulationParameters& p,
  const InitialState& initial,
  int ranks,
  const Run& run)
{
  std::vector<Result> results(static_cast<std::size_t>(ranks));
  runOnThreads(ranks,
    [&](ThreadRankExchange& exchange)
    {
      const Partition partition = splitGrid(p.nx, p.ny, ranks, exchange.rank());
      SimulationPlan plan = Simulation::plan(p);
      splitAmongRanks(plan, partition, exchange);
      Simulation s(plan, blockOf(initial, partition.block()));
      results[static_cast<std::size_t>(exchange.rank())] = run(s);
    });
  return results;
}

std::vector<Output> runSplit(const SimulationParameters& p,
  const InitialState& initial,
  int ranks,
  const std::vector<double>& times,
  const Kept& kept);

// A case of the parametrized split tests: the scheme, the precision, a fixed or adaptive dt, and
// the exchange interval (SimulationParameters::exchangeInterval); named for gtest by caseName.
struct SplitCase
{
  Scheme scheme;
  Precision precision;
  bool fixedDt;
  int interval = 1;
};
std::string caseName(const ::testing::TestParamInfo<SplitCase>& info);

// Every rank's block of fields and kept fields, and its steps, at t = 0.3 and 0.7 s are those of
// the run on one rank.
void expectSameBitsAsOneRank(const SimulationParameters& p,
  const InitialState& initial,
  int ranks,
  const Kept& kept = kMaps);
} // namespace swe::test
