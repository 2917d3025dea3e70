#pragma once
// The ranks of ParaView's own parallel engine (pvbatch or pvserver under mpirun): its global
// controller's MPI communicator, as the engine's RankExchange. The plugin starts no MPI of its
// own.
#include "RankExchange.h"

#include <memory>

namespace swe
{
// The global controller's ranks when it is an MPI controller of more than one process (made
// over a duplicate of its communicator: collective, so every rank must ask together); null in
// the GUI's builtin mode, a serial pvserver or pvbatch, or a plugin built without MPI.
std::unique_ptr<RankExchange> pipelineRanks();
// The number of processes of the global controller (1 without one).
int pipelineProcesses();
// This process's index among them (0 without one).
int pipelineRank();
// This process's index among the global controller's processes on its node (0 without MPI), for
// choosing a GPU.
int pipelineNodeLocalRank();
} // namespace swe
