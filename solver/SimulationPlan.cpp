// A simulation's plan (Simulation::plan: the checks, the device and the launch shape) and that of
// one rank's block in a run split among ranks (splitAmongRanks, blockParameters), apart from the
// facade that runs it.
#include "Error.h"
#include "RankExchange.h"
#include "Seconds.h"
#include "Simulation.h"

#include <string>

namespace swe
{
namespace
{
// params of the whole grid (or already of this block) made those of the partition's compute
// block, of which the block is the part owned.
void placeBlock(SimulationParameters& params, const Partition& partition)
{
  const Block& b = partition.block();
  const Block c = partition.computeBlock();
  params.nx = c.nx;
  params.ny = c.ny;
  params.blockX0 = c.x0;
  params.blockY0 = c.y0;
  params.wholeNx = partition.gridNx;
  params.wholeNy = partition.gridNy;
  const bool overlaps = !(c == b);
  params.ownedI0 = overlaps ? b.x0 - c.x0 : 0;
  params.ownedJ0 = overlaps ? b.y0 - c.y0 : 0;
  params.ownedNx = overlaps ? b.nx : 0;
  params.ownedNy = overlaps ? b.ny : 0;
}
} // namespace

SimulationPlan Simulation::plan(const SimulationParameters& params,
  bool perCellManning,
  const LaunchTuningProgress& progress)
{
  SimulationPlan plan;
  auto start = Clock::now();
  plan.device = check(params, perCellManning);
  plan.params = params;
  plan.perCellManning = perCellManning;
  plan.seconds.device = secondsSince(start);
  start = Clock::now();
  plan.shape = resolveLaunchShape(params, plan.device, progress);
  plan.seconds.launch = secondsSince(start);
  return plan;
}

SimulationParameters blockParameters(const SimulationParameters& params, const Partition& partition)
{
  SimulationParameters block = params;
  placeBlock(block, partition);
  return block;
}

SimulationParameters ownedParameters(const SimulationParameters& params)
{
  SimulationParameters owned = params;
  if (params.ownsWholeBlock())
    return owned;
  owned.nx = params.ownedNx;
  owned.ny = params.ownedNy;
  owned.blockX0 += params.ownedI0;
  owned.blockY0 += params.ownedJ0;
  owned.ownedI0 = owned.ownedJ0 = owned.ownedNx = owned.ownedNy = 0;
  return owned;
}

std::optional<InitialState> computeBlockState(const SimulationPlan& plan, const InitialState& owned)
{
  if (!plan.partition || plan.partition->overlap == 0 || !plan.ranks)
    return std::nullopt;
  const Block& b = plan.partition->block();
  runAgreed(plan.ranks,
    [&]
    {
      if (owned.nx != b.nx || owned.ny != b.ny)
        throw Error("initial state is " + std::to_string(owned.nx) + " x " +
                    std::to_string(owned.ny) + " cells but this rank's block is " +
                    std::to_string(b.nx) + " x " + std::to_string(b.ny));
    });
  return extendToComputeBlock(owned, *plan.partition, *plan.ranks);
}

void splitAmongRanks(SimulationPlan& plan, const Partition& given, RankExchange& ranks)
{
  Partition partition = given;
  partition.overlap = overlapCells(plan.params);
  partition.validate();
  const Block& b = partition.block();
  const bool whole = partition.gridNx == plan.params.nx && partition.gridNy == plan.params.ny;
  if (!whole && (b.nx != plan.params.nx || b.ny != plan.params.ny))
    throw Error("the partition is of a " + std::to_string(partition.gridNx) + " x " +
                std::to_string(partition.gridNy) + " grid with this rank's block " +
                std::to_string(b.nx) + " x " + std::to_string(b.ny) + ", the plan's grid is " +
                std::to_string(plan.params.nx) + " x " + std::to_string(plan.params.ny));
  placeBlock(plan.params, partition);
  plan.partition = partition;
  plan.ranks = &ranks;
}
} // namespace swe
