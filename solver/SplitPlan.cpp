// The plan of one rank's block in a run split among ranks (Simulation.h: splitAmongRanks,
// blockParameters), apart from the facade that runs it.
#include "Error.h"
#include "Simulation.h"

#include <string>

namespace swe
{
namespace
{
// params of the whole grid (or already of this block) made those of the partition's block.
void placeBlock(SimulationParameters& params, const Partition& partition)
{
  const Block& b = partition.block();
  params.nx = b.nx;
  params.ny = b.ny;
  params.blockX0 = b.x0;
  params.blockY0 = b.y0;
  params.wholeNx = partition.gridNx;
  params.wholeNy = partition.gridNy;
}
} // namespace

SimulationParameters blockParameters(const SimulationParameters& params, const Partition& partition)
{
  SimulationParameters block = params;
  placeBlock(block, partition);
  return block;
}

void splitAmongRanks(SimulationPlan& plan, const Partition& partition, RankExchange& ranks)
{
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
