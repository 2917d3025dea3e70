#pragma once
// Private to the engine: what ties one rank's device state to the other ranks' of a split run
// (Partition.h). Each exchange waits for the queue, reads the cells the neighbours need from the
// device, trades them (RankExchange), and queues the writes of what came back, so that the
// queue's next kernel reads a halo as a single-rank run's grid would hold it. The wave-speed
// maximum is agreed the same way before every choice of dt.
#include "GridLayout.h"
#include "OpenCL.h"
#include "Partition.h"
#include "RankExchange.h"

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

private:
  cl::CommandQueue& queue_;
  GridLayout layout_;
  Partition partition_;
  RankExchange& exchange_;
  std::vector<HaloLink> links_;
  // Staging of each link's sent and received cells, fields one after the other; kept between
  // exchanges, as the queued writes read them after exchangeHalo returns.
  std::vector<std::vector<unsigned char>> sent_, received_;
  std::vector<unsigned char> partials_;
};
} // namespace swe
