#pragma once
// Ranks as threads of one process, for tests and for benchmarks of split runs on one machine
// (swe bench --ranks): each thread is a rank, and RankExchange's messages and collectives pass
// through memory the threads share. A wait longer than a minute throws swe::Error (a rank whose
// peers failed or hang fails instead of waiting for ever).
#include "RankExchange.h"

#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <tuple>
#include <vector>

namespace swe
{
// What the ranks share: mailboxes for messages and a meeting place for collectives.
class ThreadWorld
{
public:
  explicit ThreadWorld(int ranks);
  int ranks() const { return ranks_; }

  void post(int from, int to, int tag, const void* data, std::size_t bytes);
  // The oldest message from rank from to rank to with this tag, once there is one.
  std::vector<unsigned char> take(int from, int to, int tag);
  // A message taken and read, whose memory a later post reuses.
  void recycle(std::vector<unsigned char>&& message);
  // Every rank's bytes, by rank, once every rank has given its own.
  std::vector<std::vector<unsigned char>> meet(int rank, const std::vector<unsigned char>& bytes);

private:
  template<class Ready>
  void wait(std::unique_lock<std::mutex>& lock, const Ready& ready);

  int ranks_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::tuple<int, int, int>, std::deque<std::vector<unsigned char>>> mail_;
  std::vector<std::vector<unsigned char>> spare_;
  std::vector<std::vector<unsigned char>> slots_, result_;
  int arrived_ = 0;
  long generation_ = 0;
};

class ThreadRankExchange final : public RankExchange
{
public:
  ThreadRankExchange(ThreadWorld& world, int rank);
  int rank() const override { return rank_; }
  int ranks() const override { return world_.ranks(); }

  void exchange(const std::vector<Message>& sends, const std::vector<Message>& receives) override;
  void maxOverRanks(double* values, int count) override;
  void sumOverRanks(double* values, int count) override;
  std::vector<std::vector<unsigned char>> gather(const std::vector<unsigned char>& bytes,
    int root) override;
  std::vector<std::vector<unsigned char>> allGather(
    const std::vector<unsigned char>& bytes) override;
  void broadcast(std::string& text, int root) override;

private:
  template<class Op>
  void reduce(double* values, int count, const Op& op);

  ThreadWorld& world_;
  int rank_;
};

// Runs rank(exchange) on `ranks` threads, each a rank of one ThreadWorld, and returns once every
// thread has ended; then rethrows the exception of the lowest rank that threw. Lists the OpenCL
// devices first: the ICD loader finds its platforms on its first call, which threads must not
// race.
void runOnThreads(int ranks, const std::function<void(ThreadRankExchange& exchange)>& rank);
} // namespace swe
