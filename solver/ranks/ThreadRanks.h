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

  // A message: its sender's bytes, which stay there until the receiver has copied them and set
  // *read.
  struct Letter
  {
    const void* data = nullptr;
    std::size_t bytes = 0;
    char* read = nullptr;
  };
  void post(int from, int to, int tag, const Letter& letter);
  // Copies the oldest letter from rank from to rank to with this tag into out, once there is
  // one, where it is capacity bytes long (else nothing), and marks it read; returns its size.
  std::size_t receive(int from, int to, int tag, void* out, std::size_t capacity);
  // Waits until every letter whose flag is in read has been read.
  void awaitRead(const std::vector<char>& read);
  // Takes back the letters whose flags are in read that no one has read yet.
  void withdraw(const std::vector<char>& read);
  // Every rank's bytes, by rank, once every rank has given its own.
  std::vector<std::vector<unsigned char>> meet(int rank, const std::vector<unsigned char>& bytes);

private:
  template<class Ready>
  void wait(std::unique_lock<std::mutex>& lock, const Ready& ready);

  int ranks_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::tuple<int, int, int>, std::deque<Letter>> mail_;
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
