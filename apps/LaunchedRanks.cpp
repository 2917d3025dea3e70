#include "LaunchedRanks.h"

#include <iostream>
#include <memory>

#ifdef SWE_WITH_MPI
#include "MpiRankExchange.h"

#include <chrono>
#include <thread>
#endif

namespace swe::cli
{
#ifdef SWE_WITH_MPI
namespace
{
int worldSize()
{
  int initialised = 0, size = 1;
  MPI_Initialized(&initialised);
  if (initialised)
    MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

int worldRank()
{
  int rank = 0;
  if (worldSize() > 1)
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

// Whether every rank reaches this point within a few seconds (a barrier that gives up).
bool allArrive()
{
  MPI_Request request;
  if (MPI_Ibarrier(MPI_COMM_WORLD, &request) != MPI_SUCCESS)
    return false;
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  int done = 0;
  while (!done && std::chrono::steady_clock::now() < until)
  {
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (!done)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return done != 0;
}
} // namespace

RankExchange* launchedRanks()
{
  static const std::unique_ptr<RankExchange> ranks =
    worldSize() > 1 ? std::make_unique<MpiRankExchange>(MPI_COMM_WORLD) : nullptr;
  return ranks.get();
}

int nodeLocalRank()
{
  return worldSize() > 1 ? swe::nodeLocalRank(MPI_COMM_WORLD) : 0;
}

bool printsReports()
{
  return worldRank() == 0;
}

int reportFailure(const std::string& message, int code)
{
  if (worldSize() == 1)
  {
    std::cerr << "swe: " << message << "\n";
    return code;
  }
  if (allArrive())
  {
    if (worldRank() == 0)
      std::cerr << "swe: " << message << "\n";
    return code;
  }
  std::cerr << "swe (rank " << worldRank() << "): " << message << "\n";
  MPI_Abort(MPI_COMM_WORLD, code);
  return code;
}
#else
RankExchange* launchedRanks()
{
  return nullptr;
}

int nodeLocalRank()
{
  return 0;
}

bool printsReports()
{
  return true;
}

int reportFailure(const std::string& message, int code)
{
  std::cerr << "swe: " << message << "\n";
  return code;
}
#endif
} // namespace swe::cli
