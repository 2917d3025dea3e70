#pragma once
// RankExchange over an MPI communicator, for the swe tool (MPI_COMM_WORLD) and the ParaView plugin
// (the global controller's communicator). The engine itself stays MPI-free: only this library,
// swe_mpi, includes mpi.h.
#include "RankExchange.h"

#include <mpi.h>

namespace swe
{
class MpiRankExchange final : public RankExchange
{
public:
  // Works on a duplicate of comm, so that its messages never match the caller's, with errors
  // returned (and thrown as swe::Error) rather than aborting the process. Collective over comm.
  explicit MpiRankExchange(MPI_Comm comm);
  ~MpiRankExchange() override;
  MpiRankExchange(const MpiRankExchange&) = delete;
  MpiRankExchange& operator=(const MpiRankExchange&) = delete;

  int rank() const override { return rank_; }
  int ranks() const override { return ranks_; }

  void exchange(const std::vector<Message>& sends, const std::vector<Message>& receives) override;
  void maxOverRanks(double* values, int count) override;
  void sumOverRanks(double* values, int count) override;
  std::vector<std::vector<unsigned char>> gather(const std::vector<unsigned char>& bytes,
    int root) override;
  std::vector<std::vector<unsigned char>> allGather(
    const std::vector<unsigned char>& bytes) override;
  void broadcast(std::string& text, int root) override;

private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  MPI_Op max_ = MPI_OP_NULL;
  int rank_ = 0;
  int ranks_ = 1;
};

// This rank's index among the ranks of comm on the same node (shared memory), to pick a GPU.
int nodeLocalRank(MPI_Comm comm);

// Owns MPI for a program that may run under an MPI launcher (the swe tool): initialises it only
// when a launcher started the process and nobody initialised it yet, and finalises what it
// initialised. Started without a launcher, the program runs as one rank without MPI.
class MpiRuntime
{
public:
  explicit MpiRuntime(int* argc = nullptr, char*** argv = nullptr);
  ~MpiRuntime();
  MpiRuntime(const MpiRuntime&) = delete;
  MpiRuntime& operator=(const MpiRuntime&) = delete;

  // Whether MPI is initialised (here or before) and world() can be used.
  bool active() const { return active_; }
  // MPI_COMM_WORLD when active, MPI_COMM_NULL otherwise.
  MPI_Comm world() const { return active_ ? MPI_COMM_WORLD : MPI_COMM_NULL; }

private:
  bool active_ = false;
  bool initialised_ = false;
};
} // namespace swe
