#pragma once
// RankExchange between threads of one process, for testing split runs without MPI: each thread
// is a rank. A wait longer than a minute throws (a test that would hang fails instead).
#include "Error.h"
#include "RankExchange.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <tuple>
#include <vector>

namespace swe::test
{
// What the ranks share: mailboxes for messages and a meeting place for collectives.
class ThreadWorld
{
public:
  explicit ThreadWorld(int ranks)
    : ranks_(ranks)
    , slots_(static_cast<std::size_t>(ranks))
  {
  }
  int ranks() const { return ranks_; }

  void post(int from, int to, int tag, const void* data, std::size_t bytes)
  {
    const auto* p = static_cast<const unsigned char*>(data);
    std::lock_guard<std::mutex> lock(mutex_);
    mail_[{ from, to, tag }].emplace_back(p, p + bytes);
    changed_.notify_all();
  }

  std::vector<unsigned char> take(int from, int to, int tag)
  {
    std::unique_lock<std::mutex> lock(mutex_);
    auto& box = mail_[{ from, to, tag }];
    wait(lock, [&] { return !box.empty(); });
    std::vector<unsigned char> message = std::move(box.front());
    box.pop_front();
    return message;
  }

  // Every rank's bytes, by rank, once every rank has given its own.
  std::vector<std::vector<unsigned char>> meet(int rank, const std::vector<unsigned char>& bytes)
  {
    std::unique_lock<std::mutex> lock(mutex_);
    slots_[static_cast<std::size_t>(rank)] = bytes;
    const long generation = generation_;
    if (++arrived_ == ranks_)
    {
      result_ = slots_;
      arrived_ = 0;
      ++generation_;
      changed_.notify_all();
    }
    else
      wait(lock, [&] { return generation_ != generation; });
    return result_;
  }

private:
  template<class Ready>
  void wait(std::unique_lock<std::mutex>& lock, const Ready& ready)
  {
    if (!changed_.wait_for(lock, std::chrono::seconds(60), ready))
      throw Error("a rank waited a minute for the others");
  }

  int ranks_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::tuple<int, int, int>, std::deque<std::vector<unsigned char>>> mail_;
  std::vector<std::vector<unsigned char>> slots_, result_;
  int arrived_ = 0;
  long generation_ = 0;
};

class ThreadRankExchange final : public RankExchange
{
public:
  ThreadRankExchange(ThreadWorld& world, int rank)
    : world_(world)
    , rank_(rank)
  {
  }
  int rank() const override { return rank_; }
  int ranks() const override { return world_.ranks(); }

  void exchange(const std::vector<Message>& sends, const std::vector<Message>& receives) override
  {
    for (const Message& m : sends)
      world_.post(rank_, m.peer, m.tag, m.data, m.bytes);
    for (const Message& m : receives)
    {
      const std::vector<unsigned char> got = world_.take(m.peer, rank_, m.tag);
      if (got.size() != m.bytes)
        throw Error("rank " + std::to_string(rank_) + " expected " + std::to_string(m.bytes) +
                    " bytes from rank " + std::to_string(m.peer) + ", got " +
                    std::to_string(got.size()));
      std::memcpy(m.data, got.data(), got.size());
    }
  }

  void maxOverRanks(double* values, int count) override
  {
    reduce(values, count, [](double a, double b) { return std::max(a, b); });
  }
  void sumOverRanks(double* values, int count) override
  {
    reduce(values, count, [](double a, double b) { return a + b; });
  }
  std::vector<std::vector<unsigned char>> gather(const std::vector<unsigned char>& bytes,
    int root) override
  {
    auto all = world_.meet(rank_, bytes);
    return rank_ == root ? all : std::vector<std::vector<unsigned char>>{};
  }
  std::vector<std::vector<unsigned char>> allGather(
    const std::vector<unsigned char>& bytes) override
  {
    return world_.meet(rank_, bytes);
  }
  void broadcast(std::string& text, int root) override
  {
    const auto all = world_.meet(rank_, std::vector<unsigned char>(text.begin(), text.end()));
    const auto& theirs = all[static_cast<std::size_t>(root)];
    text.assign(theirs.begin(), theirs.end());
  }

private:
  template<class Op>
  void reduce(double* values, int count, const Op& op)
  {
    std::vector<unsigned char> bytes(static_cast<std::size_t>(count) * sizeof(double));
    std::memcpy(bytes.data(), values, bytes.size());
    const auto all = world_.meet(rank_, bytes);
    for (int k = 0; k < count; ++k)
    {
      double v;
      std::memcpy(&v, all[0].data() + k * sizeof(double), sizeof(double));
      for (std::size_t r = 1; r < all.size(); ++r)
      {
        double w;
        std::memcpy(&w, all[r].data() + k * sizeof(double), sizeof(double));
        v = op(v, w);
      }
      values[k] = v;
    }
  }

  ThreadWorld& world_;
  int rank_;
};
} // namespace swe::test
