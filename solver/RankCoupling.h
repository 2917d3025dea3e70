#pragma once
// Private to the engine: what ties one rank's device state to the other ranks' of a split run
// (Partition.h). Each exchange waits for the queue, reads the cells the neighbours need from the
// device, trades them (RankExchange), and queues the writes of what came back, so that the
// queue's next kernel reads a halo as a single-rank run's grid would hold it. The wave-speed
// maximum is agreed the same way before every choice of dt.
//
// Each exchange and agreement is timed (seconds()): the waits for the queue inside them count,
// as they are part of what a host-driven exchange costs (the device idles from the wait until
// the halo's writes are queued, and the queue cannot run ahead of the host). The wait for the
// work queued before each is also timed apart (SplitSeconds::wait), so the exchange's own share
// can be told from the steps' kernels it waits for.
#include "GridLayout.h"
#include "OpenCL.h"
#include "Partition.h"
#include "RankExchange.h"
#include "SimulationTypes.h"

#include <chrono>
#include <vector>

namespace swe
{
class RankCoupling
{
public:
  RankCoupling(cl::CommandQueue& queue,
    const GridLayout& layout,
    const Partition& partition,
    RankExchange& exchange);

  const Partition& partition() const { return partition_; }
  RankExchange& ranks() const { return exchange_; }

  // The halo of these fields (each a buffer laid out as the layout says).
  void exchangeHalo(const std::vector<const cl::Buffer*>& fields);
  // The largest of the partials over every rank, into partials[0] (count values of the
  // precision; the device's maximum of them is then the grid's).
  void agreeOnMaximum(const cl::Buffer& partials, std::size_t count);
  // Runs agree, another agreement of the ranks within a step (DeviceClock::agreeOnRedo), and
  // counts its time as an agreement's.
  template<class Agree>
  void timeAgreement(const Agree& agree)
  {
    const Stopwatch watch(seconds_.agree, seconds_.agreements);
    agree();
  }

  // Waits for the work queued so far (the steps' kernels), timed as SplitSeconds::wait: the
  // first thing each exchange and agreement does.
  void waitForQueue();

  // The time spent in the exchanges and agreements since this coupling was made.
  const SplitSeconds& seconds() const { return seconds_; }

private:
  // Adds the seconds from its making to its end to a total, and one to a count.
  class Stopwatch
  {
  public:
    Stopwatch(double& seconds, std::int64_t& calls)
      : seconds_(seconds)
      , calls_(calls)
    {
    }
    ~Stopwatch()
    {
      seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
      ++calls_;
    }
    Stopwatch(const Stopwatch&) = delete;
    Stopwatch& operator=(const Stopwatch&) = delete;

  private:
    double& seconds_;
    std::int64_t& calls_;
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  };

  cl::CommandQueue& queue_;
  GridLayout layout_;
  Partition partition_;
  RankExchange& exchange_;
  std::vector<HaloLink> links_;
  // Staging of each link's sent and received cells, fields one after the other; kept between
  // exchanges, as the queued writes read them after exchangeHalo returns.
  std::vector<std::vector<unsigned char>> sent_, received_;
  std::vector<unsigned char> partials_;
  SplitSeconds seconds_;
};
} // namespace swe
