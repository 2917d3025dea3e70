#pragma once
// What ties one rank's device state to the other ranks' of a split run (Partition.h). Each exchange
// packs the cells the neighbours need into one staging buffer on the device
// (kernels/state/halo.cl), waits for the queue, reads it, trades it (RankExchange), and queues the
// write and unpacking of what came back, so that the queue's next kernel reads a halo as a
// single-rank run's grid would hold it. The wave-speed maximum is agreed before every choice of dt,
// in the same round trip as the halo before it where the step asks (agreeWithNextHalo).
//
// Each exchange and agreement is timed (seconds()): the waits for the queue inside them count,
// as they are part of what a host-driven exchange costs (the device idles from the wait until
// the halo's writes are queued, and the queue cannot run ahead of the host). The wait for the
// work queued before each is also timed apart (SplitSeconds::wait), so the exchange's own share
// can be told from the steps' kernels it waits for.
#include "DeviceProgram.h"
#include "GridLayout.h"
#include "OpenCL.h"
#include "Partition.h"
#include "PinnedHostMemory.h"
#include "RankExchange.h"
#include "Seconds.h"
#include "SimulationTypes.h"

#include <array>
#include <vector>

namespace swe
{
class RankCoupling
{
public:
  RankCoupling(const EngineContext& engine,
    const GridLayout& layout,
    const Partition& partition,
    RankExchange& exchange);
  // (waits for an early halo's write, which reads this coupling's host memory)
  ~RankCoupling();
  RankCoupling(const RankCoupling&) = delete;
  RankCoupling& operator=(const RankCoupling&) = delete;

  const Partition& partition() const { return partition_; }
  RankExchange& ranks() const { return exchange_; }

  // The halo of these fields (each a buffer laid out as the layout says); and the maximum that
  // agreeWithNextHalo asked for, read in the same wait.
  void exchangeHalo(const std::vector<const cl::Buffer*>& fields);
  // A halo sent early, while the device goes on: the cells this rank sends (in its own
  // coordinates) are packed as soon as a step has written them (sendEarly, queued between the
  // launch over the tiles that hold them and the launch over the rest), then read on a queue of
  // their own and traded while the rest of the step runs (completeEarly). The next exchangeHalo
  // of as many fields only unpacks what came back; the wave speeds are then agreed on by
  // agreeOnMaximum, in a round trip of their own (a single value).
  std::vector<CellRect> sentRects() const;
  void sendEarly(const std::vector<const cl::Buffer*>& fields);
  void completeEarly();
  // Queues the read of the partials the next agreeOnMaximum agrees on, so that it waits for this
  // read alone, not for the work queued after it (the next step's ghosts and unpacking).
  void readSpeedsEarly(const cl::Buffer& partials, std::size_t count);

  // The largest of the partials over every rank, into partials[0] (count values of the
  // precision; the device's maximum of them is then the grid's). Nothing if the last halo
  // exchange agreed on them already.
  void agreeOnMaximum(const cl::Buffer& partials, std::size_t count);
  // The next exchangeHalo agrees on the maximum of these partials too, when a step's ghost fill
  // comes right before its dt: one round trip to the host instead of two. The partials must not
  // change between that exchange and agreeOnMaximum.
  void agreeWithNextHalo(const cl::Buffer& partials, std::size_t count);
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
  // Runs wait(), a wait for the device, timed as SplitSeconds::wait.
  template<class Wait>
  void timedWait(const Wait& wait)
  {
    const Clock::time_point start = Clock::now();
    wait();
    seconds_.wait += secondsSince(start);
  }

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
      seconds_ += secondsSince(start_);
      ++calls_;
    }
    Stopwatch(const Stopwatch&) = delete;
    Stopwatch& operator=(const Stopwatch&) = delete;

  private:
    double& seconds_;
    std::int64_t& calls_;
    Clock::time_point start_ = Clock::now();
  };

  cl::CommandQueue& queue_;
  GridLayout layout_;
  Partition partition_;
  RankExchange& exchange_;
  std::vector<HaloLink> links_;
  std::vector<std::array<std::size_t, 2>> linkCells_; // each link's cells sent, received
  // Queues pack_halo or unpack_halo over each link's rectangles, in link order, each
  // rectangle's fields one after the other; returns the cells of a field so staged.
  std::size_t stage(cl::Kernel& kernel,
    const std::vector<const cl::Buffer*>& fields,
    bool sending,
    const cl::Buffer& staging);

  // The staging of every link's sent and received cells, on the device and on the host (kept
  // between exchanges, as the queued write reads it after exchangeHalo returns), and where each
  // link's cells start in it, in bytes.
  cl::Context context_;
  cl::Kernel pack_, unpack_;
  cl::Buffer sendStaging_, receiveStaging_;
  PinnedHostMemory sent_, received_;
  // Trades the staged cells of `fields` fields a cell, from sent_ into received_; returns the
  // bytes received.
  std::size_t trade(std::size_t fields);
  // The early halo's: the queue that copies while the steps run, the pack's end, the write of
  // what came back, and the fields a cell it packed and holds queued (0: none pending).
  cl::CommandQueue copyQueue_;
  cl::Event packed_, written_, speedsRead_;
  bool speedsPending_ = false;
  std::size_t sentEarlyBytes_ = 0, packedFields_ = 0, earlyFields_ = 0;
  // Queues the read of count partials into partials_ (the caller waits for it, or for `read`).
  void readPartials(const cl::Buffer& partials, std::size_t count, cl::Event* read = nullptr);
  // Agrees on the largest of the partials read and queues its write into partials[0].
  void agreeOnPartialsRead(const cl::Buffer& partials, std::size_t count);

  std::vector<unsigned char> partials_;
  // Set by agreeWithNextHalo until the exchange that agrees on them; agreedEarly_ from then on
  // until agreeOnMaximum.
  const cl::Buffer* nextHaloPartials_ = nullptr;
  std::size_t nextHaloCount_ = 0;
  bool agreedEarly_ = false;
  SplitSeconds seconds_;
};
} // namespace swe
