#include "ThreadRanks.h"

#include "Devices.h"
#include "Error.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <exception>
#include <thread>

namespace swe
{
ThreadWorld::ThreadWorld(int ranks)
  : ranks_(ranks)
  , slots_(static_cast<std::size_t>(ranks))
{
}

void ThreadWorld::post(int from, int to, int tag, const void* data, std::size_t bytes)
{
  // The copy into a recycled message, outside the lock: a halo of megabytes into fresh memory
  // would fault in every page again at every exchange, while every other rank waits.
  std::vector<unsigned char> message;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!spare_.empty())
    {
      message = std::move(spare_.back());
      spare_.pop_back();
    }
  }
  const auto* p = static_cast<const unsigned char*>(data);
  message.assign(p, p + bytes);
  std::lock_guard<std::mutex> lock(mutex_);
  mail_[{ from, to, tag }].push_back(std::move(message));
  changed_.notify_all();
}

void ThreadWorld::recycle(std::vector<unsigned char>&& message)
{
  std::lock_guard<std::mutex> lock(mutex_);
  spare_.push_back(std::move(message));
}

std::vector<unsigned char> ThreadWorld::take(int from, int to, int tag)
{
  std::unique_lock<std::mutex> lock(mutex_);
  auto& box = mail_[{ from, to, tag }];
  wait(lock, [&] { return !box.empty(); });
  std::vector<unsigned char> message = std::move(box.front());
  box.pop_front();
  return message;
}

std::vector<std::vector<unsigned char>> ThreadWorld::meet(int rank,
  const std::vector<unsigned char>& bytes)
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

template<class Ready>
void ThreadWorld::wait(std::unique_lock<std::mutex>& lock, const Ready& ready)
{
  if (!changed_.wait_for(lock, std::chrono::seconds(60), ready))
    throw Error("a rank waited a minute for the others");
}

ThreadRankExchange::ThreadRankExchange(ThreadWorld& world, int rank)
  : world_(world)
  , rank_(rank)
{
}

void ThreadRankExchange::exchange(const std::vector<Message>& sends,
  const std::vector<Message>& receives)
{
  for (const Message& m : sends)
    world_.post(rank_, m.peer, m.tag, m.data, m.bytes);
  for (const Message& m : receives)
  {
    std::vector<unsigned char> got = world_.take(m.peer, rank_, m.tag);
    if (got.size() != m.bytes)
      throw Error("rank " + std::to_string(rank_) + " expected " + std::to_string(m.bytes) +
                  " bytes from rank " + std::to_string(m.peer) + ", got " +
                  std::to_string(got.size()));
    std::memcpy(m.data, got.data(), got.size());
    world_.recycle(std::move(got));
  }
}

void ThreadRankExchange::maxOverRanks(double* values, int count)
{
  reduce(values, count, [](double a, double b) { return std::max(a, b); });
}

void ThreadRankExchange::sumOverRanks(double* values, int count)
{
  reduce(values, count, [](double a, double b) { return a + b; });
}

std::vector<std::vector<unsigned char>> ThreadRankExchange::gather(
  const std::vector<unsigned char>& bytes,
  int root)
{
  auto all = world_.meet(rank_, bytes);
  return rank_ == root ? all : std::vector<std::vector<unsigned char>>{};
}

std::vector<std::vector<unsigned char>> ThreadRankExchange::allGather(
  const std::vector<unsigned char>& bytes)
{
  return world_.meet(rank_, bytes);
}

void ThreadRankExchange::broadcast(std::string& text, int root)
{
  const auto all = world_.meet(rank_, std::vector<unsigned char>(text.begin(), text.end()));
  const auto& theirs = all[static_cast<std::size_t>(root)];
  text.assign(theirs.begin(), theirs.end());
}

// Each value combined over the ranks in rank order, so that every rank gets the same bits.
template<class Op>
void ThreadRankExchange::reduce(double* values, int count, const Op& op)
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

void runOnThreads(int ranks, const std::function<void(ThreadRankExchange& exchange)>& rank)
{
  listDevices();
  ThreadWorld world(ranks);
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(ranks));
  std::vector<std::thread> threads;
  for (int r = 0; r < ranks; ++r)
    threads.emplace_back(
      [&, r]
      {
        try
        {
          ThreadRankExchange exchange(world, r);
          rank(exchange);
        }
        catch (...)
        {
          errors[static_cast<std::size_t>(r)] = std::current_exception();
        }
      });
  for (std::thread& t : threads)
    t.join();
  for (const std::exception_ptr& e : errors)
    if (e)
      std::rethrow_exception(e);
}
} // namespace swe
