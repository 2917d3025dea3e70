// swe bench --ranks: the grid split among threads of this process as ranks, each with its
// simulation, queue and device, timed against one block alone (SPLIT lines); with --check-bits,
// the split run's state against the whole grid on one rank (BITS line).
#include "BenchSplit.h"

#include "Devices.h"
#include "InitialState.h"
#include "Partition.h"
#include "Simulation.h"
#include "ThreadRanks.h"
#include "Timing.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

namespace swe::cli
{
int warmupSteps(int steps)
{
  return std::max(1, std::min(steps / 10, 50));
}

double timedStepRate(Simulation& simulation, int steps)
{
  simulation.enqueueSteps(warmupSteps(steps));
  simulation.finish();
  const std::int64_t before = simulation.steps();
  const auto start = Clock::now();
  simulation.enqueueSteps(steps);
  simulation.finish();
  const double seconds = secondsSince(start);
  const SimulationParameters& p = simulation.parameters();
  return static_cast<double>(p.nx) * p.ny * static_cast<double>(simulation.steps() - before) /
         seconds;
}

namespace
{
// SPLIT: one rank's timed steps, and its share of them spent coupling it to the other ranks.
struct RankTiming
{
  double seconds = 0;     // the timed steps, wall-clock
  std::int64_t taken = 0; // the timed steps taken
  SplitSeconds split;     // during those steps
  std::string device;
  std::uint64_t digest = 0; // of the rank's block after the timed steps (--check-bits)
};

// An order-free digest of a block's depth and momenta: each cell's bits hashed with its place
// in the whole grid, the hashes summed (mod 2^64), so that the blocks' digests of a split run
// add up to the digest of the same state held whole.
std::uint64_t stateDigest(const Simulation& simulation, const Block& block)
{
  const auto mix = [](std::uint64_t z) { // (splitmix64's finalizer)
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  };
  std::vector<double> values(static_cast<std::size_t>(block.nx) * block.ny);
  std::uint64_t sum = 0;
  const Field fields[] = { Field::Depth, Field::MomentumX, Field::MomentumY };
  for (std::uint64_t f = 0; f < 3; ++f)
  {
    simulation.download(fields[f], values.data());
    for (int j = 0; j < block.ny; ++j)
      for (int i = 0; i < block.nx; ++i)
      {
        const double v = values[static_cast<std::size_t>(j) * block.nx + i];
        std::uint64_t bits;
        std::memcpy(&bits, &v, sizeof bits);
        const std::uint64_t place = (static_cast<std::uint64_t>(block.y0 + j) << 32 |
                                      static_cast<std::uint64_t>(block.x0 + i)) *
                                      3 +
                                    f;
        sum += mix(mix(place) ^ bits);
      }
  }
  return sum;
}

// A rank's warm-up, then its timed steps. exchange: the other ranks (null: a run alone), met
// before and after the timed steps, so that every rank times the same interval (the slowest
// rank's).
RankTiming timeRank(Simulation& simulation, RankExchange* exchange, int steps)
{
  const auto barrier = [&]
  {
    double none = 0;
    if (exchange)
      exchange->maxOverRanks(&none, 1);
  };
  simulation.step(warmupSteps(steps));
  barrier();
  const SplitSeconds before = simulation.splitSeconds();
  const std::int64_t stepsBefore = simulation.steps();
  const auto start = Clock::now();
  simulation.step(steps);
  barrier();
  RankTiming t;
  t.seconds = secondsSince(start);
  t.taken = simulation.steps() - stepsBefore;
  const SplitSeconds after = simulation.splitSeconds();
  t.split = { after.halo - before.halo,
    after.agree - before.agree,
    after.halos - before.halos,
    after.agreements - before.agreements,
    after.wait - before.wait };
  t.device = simulation.device().name;
  return t;
}

// The plan of rank's block run alone: rank's device (with --device auto, the rank's turn among
// the GPUs, as under mpirun) and the launch shape the block's size resolves to.
SimulationPlan blockPlan(const SimulationParameters& params, int ranks, int rank)
{
  SimulationParameters p = params;
  p.device = deviceSelectorForRank(params.device, rank);
  const Block b = splitGrid(params.nx, params.ny, ranks, rank).block();
  p.nx = b.nx;
  p.ny = b.ny;
  return Simulation::plan(p);
}

// The plan of rank in the split run: its block alone's device and launch shape (so that the
// baseline and the split run time the same kernels), over the whole grid for splitAmongRanks.
// Made before the threads start, so that no two ranks tune one device at once.
SimulationPlan rankPlan(const SimulationParameters& params, int ranks, int rank)
{
  const SimulationPlan alone = blockPlan(params, ranks, rank);
  SimulationParameters p = params;
  p.device = alone.params.device;
  p.launch = alone.shape.text();
  return Simulation::plan(p);
}

// The split run, each rank a thread with its own simulation timed by timeRank: the timings by
// rank. An error on any rank reaches the caller (the lowest rank's, once every thread ended).
std::vector<RankTiming> timeSplitRun(const std::vector<SimulationPlan>& plans,
  const InitialState& whole,
  int steps,
  bool checkBits)
{
  const int ranks = static_cast<int>(plans.size());
  std::vector<RankTiming> timings(plans.size());
  runOnThreads(ranks,
    [&](ThreadRankExchange& exchange)
    {
      const int r = exchange.rank();
      const Partition partition = splitGrid(whole.nx, whole.ny, ranks, r);
      SimulationPlan plan = plans[static_cast<std::size_t>(r)];
      splitAmongRanks(plan, partition, exchange);
      Simulation simulation(plan, blockOf(whole, partition.block()));
      RankTiming& t = timings[static_cast<std::size_t>(r)];
      t = timeRank(simulation, &exchange, steps);
      if (checkBits)
        t.digest = stateDigest(simulation, partition.block());
    });
  return timings;
}

// --check-bits: the whole grid on one rank (rank 0's device and launch shape, one step a launch
// as a split run takes them: two a launch choose their adaptive dt in pairs), the same steps as
// the split run; BITS says whether the split run's state is this one's, bit for bit.
void checkSplitBits(const SimulationPlan& rankZero,
  const InitialState& whole,
  int steps,
  const std::vector<RankTiming>& split)
{
  SimulationParameters params = rankZero.params;
  LaunchShape shape = rankZero.shape;
  shape.steps = 1;
  params.launch = shape.text();
  Simulation simulation(Simulation::plan(params), whole);
  simulation.step(warmupSteps(steps));
  simulation.step(steps);
  const std::uint64_t digest = stateDigest(simulation, Block{ 0, 0, whole.nx, whole.ny });
  std::uint64_t splitDigest = 0;
  for (const RankTiming& t : split)
    splitDigest += t.digest;
  const std::int64_t splitSteps = split.front().taken + warmupSteps(steps);
  std::printf("BITS ranks=%zu steps=%lld one_rank_steps=%lld identical=%s\n",
    split.size(),
    static_cast<long long>(splitSteps),
    static_cast<long long>(simulation.steps()),
    digest == splitDigest && splitSteps == simulation.steps() ? "yes" : "no");
}

// cells: the cells every step updates (the whole grid's, in a split run); the rest, rank 0's.
// exchange_fraction counts the waits for the steps' kernels inside the exchanges (wait_seconds):
// a host-driven exchange keeps the host waiting on the device for most of a step, so the
// exchange's own share is own_fraction, (halo + agree - wait) / step seconds. Where the halo goes
// out early (RankCoupling::sendEarly), the host's part of it runs while the device steps, so the
// measure is split_cost: the share of a step beyond the one-rank line's (`alone`) step.
void printSplitLine(int ranks,
  const Block& block,
  double cells,
  const RankTiming& t,
  const RankTiming& alone)
{
  const double exchange = t.split.halo + t.split.agree;
  const double step = t.seconds / static_cast<double>(t.taken),
               aloneStep = alone.seconds / static_cast<double>(alone.taken);
  std::printf("SPLIT ranks=%d block=%dx%d steps=%lld cells_per_second=%.6e halo_seconds=%.6f "
              "agree_seconds=%.6f step_seconds=%.6f exchange_fraction=%.4f wait_seconds=%.6f "
              "own_fraction=%.4f split_cost=%.4f\n",
    ranks,
    block.nx,
    block.ny,
    static_cast<long long>(t.taken),
    cells * static_cast<double>(t.taken) / t.seconds,
    t.split.halo,
    t.split.agree,
    t.seconds,
    exchange / t.seconds,
    t.split.wait,
    (exchange - t.split.wait) / t.seconds,
    1.0 - aloneStep / step);
}

// The grid split among --ranks threads of this process as ranks, each with its simulation, its
// queue and its device: the one-rank run of rank 0's block first (the baseline, the same kernels
// on the same device), then the split run. Both take --steps steps after a warm-up.
} // namespace

int benchSplit(const SimulationParameters& params, int ranks, int steps, bool checkBits)
{
  const Block block = splitGrid(params.nx, params.ny, ranks, 0).block();
  const InitialState whole = makeScenario(Scenario::DamBreak, params);
  RankTiming alone;
  {
    Simulation simulation(blockPlan(params, ranks, 0), blockOf(whole, block));
    alone = timeRank(simulation, nullptr, steps);
  }
  std::vector<SimulationPlan> plans;
  for (int r = 0; r < ranks; ++r)
    plans.push_back(rankPlan(params, ranks, r));
  const std::vector<RankTiming> split = timeSplitRun(plans, whole, steps, checkBits);
  const RankTiming& first = split.front();
  std::cerr << "swe bench: " << params.nx << " x " << params.ny << " split among " << ranks
            << " threads as ranks (rank 0's block " << block.nx << " x " << block.ny << "), "
            << schemeName(params.scheme) << ", " << precisionName(params.precision)
            << "; rank 0: " << first.split.halos << " halo exchanges, " << first.split.agreements
            << " agreements in " << first.taken << " steps; devices:";
  for (int r = 0; r < ranks; ++r)
    std::cerr << (r ? ", " : " ") << r << ": " << split[static_cast<std::size_t>(r)].device;
  std::cerr << "\n";
  printSplitLine(1, block, static_cast<double>(block.nx) * block.ny, alone, alone);
  printSplitLine(ranks, block, static_cast<double>(params.nx) * params.ny, first, alone);
  if (checkBits)
    checkSplitBits(plans.front(), whole, steps, split);
  return 0;
}

} // namespace swe::cli
