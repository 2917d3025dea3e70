#pragma once
// The ranks swe runs on: the processes an MPI launcher started (mpirun -np N swe run ...), or
// one. swe run splits its grid among them (solver/ranks/Partition.h); the reports and files of the
// whole run come from rank 0.
#include "RankExchange.h"

#include <string>

namespace swe::cli
{
// The launcher's ranks when there are more than one (made on first use, collective then); null
// for one process, or where swe was built without MPI.
RankExchange* launchedRanks();
// This process's index among the launcher's processes on its node (0 without a launcher).
int nodeLocalRank();
// Whether this process prints the run's reports: rank 0, or the only one.
bool printsReports();
// Ends swe on an error: where every rank failed (an engine error, agreed by all) rank 0 says it
// and each returns code; where only this one did, it says it with its rank and stops every rank
// (MPI_Abort), which would otherwise wait for it for ever.
int reportFailure(const std::string& message, int code);
} // namespace swe::cli
