#include "PipelineRanks.h"

#include <vtkMultiProcessController.h>

#ifdef SWE_WITH_MPI
#include "MpiRankExchange.h"

#include <vtkMPI.h>
#include <vtkMPICommunicator.h>
#endif

namespace swe
{
int pipelineProcesses()
{
  vtkMultiProcessController* controller = vtkMultiProcessController::GetGlobalController();
  return controller ? controller->GetNumberOfProcesses() : 1;
}

int pipelineRank()
{
  vtkMultiProcessController* controller = vtkMultiProcessController::GetGlobalController();
  return controller ? controller->GetLocalProcessId() : 0;
}

#ifdef SWE_WITH_MPI
namespace
{
// The global controller's MPI communicator, where it has one of more than one process.
MPI_Comm* pipelineCommunicator()
{
  vtkMultiProcessController* controller = vtkMultiProcessController::GetGlobalController();
  if (!controller || controller->GetNumberOfProcesses() < 2)
    return nullptr;
  auto* communicator = vtkMPICommunicator::SafeDownCast(controller->GetCommunicator());
  return communicator && communicator->GetMPIComm() ? communicator->GetMPIComm()->GetHandle()
                                                    : nullptr;
}
} // namespace

std::unique_ptr<RankExchange> pipelineRanks()
{
  MPI_Comm* comm = pipelineCommunicator();
  return comm ? std::make_unique<MpiRankExchange>(*comm) : nullptr;
}

int pipelineNodeLocalRank()
{
  MPI_Comm* comm = pipelineCommunicator();
  return comm ? nodeLocalRank(*comm) : 0;
}
#else
std::unique_ptr<RankExchange> pipelineRanks()
{
  return nullptr;
}

int pipelineNodeLocalRank()
{
  return 0;
}
#endif
} // namespace swe
