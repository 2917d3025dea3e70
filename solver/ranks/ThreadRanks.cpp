#include "ThreadRanks.h"

#include "Devices.h"
#include "Error.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <exception>
#include <optional>
#include <string>
#include <thread>

namespace swe
{
ThreadWorld::ThreadWorld(int ranks)
  : ranks_(ranks)
  , slots_(static_cast<std::size_t>(ranks))
{
}

void ThreadWorld::post(int from, int to, int tag, const Letter& letter)
{
  std::lock_guard<std::mutex> lock(mutex_);
  mail_[{ from, to, tag }].push_back(letter);
  changed_.notify_all();
}

std::size_t ThreadWorld::receive(int from, int to, int tag, void* out, std::size_t capacity)
{
  Letter letter;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    auto& box = mail_[{ from, to, tag }];
    wait(lock, [&] { return !box.empty(); });
    letter = box.front();
    box.pop_front();
  }
  // (Outside the lock: the other ranks trade their own letters meanwhile.)
  if (letter.bytes == capacity)
    std::memcpy(out, letter.data, letter.bytes);
  std::lock_guard<std::mutex> lock(mutex_);
  *letter.read = 1;
  changed_.notify_all();
  return letter.bytes;
}

void ThreadWorld::awaitRead(const std::vector<char>& read)
{
  std::unique_lock<std::mutex> lock(mutex_);
  wait(lock, [&] { return std::all_of(read.begin(), read.end(), [](char r) { return r != 0; }); });
}

void ThreadWorld::withdraw(const std::vector<char>& read)
{
  std::lock_guard<std::mutex> lock(mutex_);
  const char* first = read.data();
  const char* last = read.data() + read.size();
  for (auto& [key, box] : mail_)
    box.erase(
      std::remove_if(
        box.begin(), box.end(), [&](const Letter& l) { return l.read >= first && l.read < last; }),
      box.end());
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
  // Each message is copied once, by its receiver, straight from its sender's memory (as MPI's
  // shared-memory transports do for large messages), which the sender keeps until it is read.
  std::vector<char> read(sends.size(), 0);
  for (std::size_t k = 0; k < sends.size(); ++k)
    world_.post(rank_, sends[k].peer, sends[k].tag, { sends[k].data, sends[k].bytes, &read[k] });
  std::optional<std::string> error;
  try
  {
    for (const Message& m : receives)
    {
      const std::size_t got = world_.receive(m.peer, rank_, m.tag, m.data, m.bytes);
      if (got != m.bytes && !error)
        error = "rank " + std::to_string(rank_) + " expected " + std::to_string(m.bytes) +
                " bytes from rank " + std::to_string(m.peer) + ", got " + std::to_string(got);
    }
    world_.awaitRead(read);
  }
  catch (const Error&)
  {
    // (A rank that gave up waiting: no letter of its may point at its memory once it is gone.)
    world_.withdraw(read);
    throw;
  }
  if (error)
    throw Error(*error);
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
