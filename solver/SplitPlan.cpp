// The plan of one rank's block in a run split among ranks (Simulation.h: splitAmongRanks,
// blockParameters), apart from the facade that runs it.
#include "Error.h"
#include "Simulation.h"

#include <string>

namespace swe
{
SimulationParameters blockParameters(const SimulationParameters& params, const Partition& partition)
{
  SimulationParameters block = params;
  if (!params.gauges.empty())
    throw Error("gauges are sampled in a run on one rank, and this run is split among " +
                std::to_string(partition.ranks()) + ": run it on one rank, or without gauges");
  block.nx = partition.block().nx;
  block.ny = partition.block().ny;
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
  plan.params.nx = b.nx;
  plan.params.ny = b.ny;
  plan.partition = partition;
  plan.ranks = &ranks;
}
} // namespace swe
