#pragma once
// The engine's one view of the other ranks of a run split among processes (Partition.h): point
// to point messages for the halos, and the few collective operations that keep every rank's
// clock, and so its bits, those of a single-rank run. VTK-free and MPI-free: MpiRankExchange.h
// implements it over an MPI communicator (the swe tool's, or ParaView's global controller's).
//
// Every rank must make the same collective calls in the same order; the engine keeps that by
// taking the same steps on every rank (they share dt) and by agreeing, at each check, on whether
// any rank failed (agreeOnError), so that an error on one rank fails every rank and none waits
// for ever.
#include "Error.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace swe
{
class RankExchange
{
public:
  virtual ~RankExchange() = default;

  virtual int rank() const = 0;
  virtual int ranks() const = 0;

  // A message of a halo exchange: bytes to send to, or receive from, rank peer.
  struct Message
  {
    int peer = -1;
    int tag = 0;
    void* data = nullptr;
    std::size_t bytes = 0;
  };
  // Posts every receive and send without blocking, then waits for all of them.
  virtual void exchange(const std::vector<Message>& sends,
    const std::vector<Message>& receives) = 0;

  // Each value replaced by its maximum (sum) over the ranks. The maximum is exact, so it is the
  // same bits on every rank and the same as a single rank's maximum of all the values.
  virtual void maxOverRanks(double* values, int count) = 0;
  virtual void sumOverRanks(double* values, int count) = 0;
  // Every rank's bytes, by rank, at rank root (empty elsewhere).
  virtual std::vector<std::vector<unsigned char>> gather(const std::vector<unsigned char>& bytes,
    int root) = 0;
  // Every rank's bytes, by rank, on every rank.
  virtual std::vector<std::vector<unsigned char>> allGather(
    const std::vector<unsigned char>& bytes) = 0;
  // text as rank root has it, on every rank.
  virtual void broadcast(std::string& text, int root) = 0;

  // Collective: throws swe::Error on every rank if any rank passes a message, with the message of
  // the lowest such rank (and which rank it was, where there is more than one).
  void agreeOnError(const std::optional<std::string>& localError);
  // Collective: whether every rank said yes.
  bool allAgree(bool yes);
};

// Runs part; with ranks (a run split among them), every rank then throws if part threw
// swe::Error on any (agreeOnError). Collective then.
template<class Part>
void runAgreed(RankExchange* ranks, const Part& part)
{
  if (!ranks)
    return part();
  std::optional<std::string> error;
  try
  {
    part();
  }
  catch (const Error& e)
  {
    error = e.what();
  }
  ranks->agreeOnError(error);
}
} // namespace swe
