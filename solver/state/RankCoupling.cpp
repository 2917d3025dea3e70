#include "RankCoupling.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace swe
{
namespace
{
constexpr std::size_t kMostFields = 4; // (pack_halo's)

template<class Real>
double largest(const unsigned char* bytes, std::size_t count)
{
  const Real* values = reinterpret_cast<const Real*>(bytes);
  double m = 0;
  for (std::size_t k = 0; k < count; ++k)
    m = std::fmax(m, static_cast<double>(values[k]));
  return m;
}
} // namespace

RankCoupling::RankCoupling(const EngineContext& engine,
  const GridLayout& layout,
  const Partition& partition,
  RankExchange& exchange)
  : queue_(engine.queue)
  , layout_(layout)
  , partition_(partition)
  , exchange_(exchange)
  , links_(partition.haloLinks())
  , context_(engine.context)
  , pack_(engine.program.kernel("pack_halo"))
  , unpack_(engine.program.kernel("unpack_halo"))
  , copyQueue_(engine.context, engine.queue.getInfo<CL_QUEUE_DEVICE>())
{
  // Staging for the most fields an exchange trades: the state's and, at a restart, the bed.
  std::size_t sent = 0, received = 0;
  for (const HaloLink& link : links_)
  {
    linkCells_.push_back({ 0, 0 });
    for (const CellRect& r : link.send)
      linkCells_.back()[0] += r.cells();
    for (const CellRect& r : link.receive)
      linkCells_.back()[1] += r.cells();
    sent += linkCells_.back()[0];
    received += linkCells_.back()[1];
  }
  // (Page-locked host memory: the bus copies of an exchange at the bus's speed, 2-6 times that
  // of ordinary memory on NVIDIA's driver; PERFORMANCE.md.)
  const std::size_t sentBytes = std::max<std::size_t>(sent * kMostFields * layout.realSize, 1),
                    receivedBytes =
                      std::max<std::size_t>(received * kMostFields * layout.realSize, 1);
  sent_.allocate(context_, queue_, sentBytes);
  received_.allocate(context_, queue_, receivedBytes);
  sendStaging_ = cl::Buffer(context_, CL_MEM_READ_WRITE, sentBytes);
  receiveStaging_ = cl::Buffer(context_, CL_MEM_READ_WRITE, receivedBytes);
}

RankCoupling::~RankCoupling()
{
  // (a destructor must not throw: a device already failing says so elsewhere)
  try
  {
    if (earlyFields_ != 0)
      written_.wait();
    if (speedsPending_)
      speedsRead_.wait();
  }
  catch (const cl::Error&)
  {
  }
}

std::size_t RankCoupling::stage(cl::Kernel& kernel,
  const std::vector<const cl::Buffer*>& fields,
  bool sending,
  const cl::Buffer& staging)
{
  const int count = static_cast<int>(fields.size());
  for (int f = 0; f < 4; ++f)
    kernel.setArg(
      static_cast<cl_uint>(f), *fields[static_cast<std::size_t>(std::min(f, count - 1))]);
  kernel.setArg(4, static_cast<cl_int>(count));
  kernel.setArg(9, staging);
  std::size_t at = 0; // (in reals)
  for (const HaloLink& link : links_)
    for (const CellRect& r : sending ? link.send : link.receive)
    {
      kernel.setArg(5, static_cast<cl_int>(r.i0));
      kernel.setArg(6, static_cast<cl_int>(r.j0));
      kernel.setArg(7, static_cast<cl_int>(r.nx));
      kernel.setArg(8, static_cast<cl_int>(r.ny));
      kernel.setArg(10, static_cast<cl_int>(at));
      const std::size_t cells = r.cells();
      queue_.enqueueNDRangeKernel(
        kernel, cl::NullRange, cl::NDRange((cells + 63) / 64 * 64), cl::NDRange(64));
      at += cells * fields.size();
    }
  return at;
}

void RankCoupling::waitForQueue()
{
  timedWait([this] { queue_.finish(); });
}

std::size_t RankCoupling::trade(std::size_t fields)
{
  // Each link's cells, in link order, as stage lays them out on both sides.
  std::vector<RankExchange::Message> sends, receives;
  std::size_t sentAt = 0, receivedAt = 0;
  for (std::size_t l = 0; l < links_.size(); ++l)
  {
    const std::size_t out = linkCells_[l][0] * fields * layout_.realSize,
                      in = linkCells_[l][1] * fields * layout_.realSize;
    sends.push_back({ links_[l].peer, 0, sent_.data() + sentAt, out });
    receives.push_back({ links_[l].peer, 0, received_.data() + receivedAt, in });
    sentAt += out;
    receivedAt += in;
  }
  exchange_.exchange(sends, receives);
  return receivedAt;
}

void RankCoupling::exchangeHalo(const std::vector<const cl::Buffer*>& fields)
{
  if (earlyFields_ != 0)
  {
    const bool sameFields = earlyFields_ == fields.size();
    earlyFields_ = 0;
    if (sameFields)
    {
      // (what came back is written on the copy queue; the unpacking waits for it)
      nextHaloPartials_ = nullptr;
      const std::vector<cl::Event> written{ written_ };
      queue_.enqueueBarrierWithWaitList(&written);
      stage(unpack_, fields, false, receiveStaging_);
      return;
    }
    written_.wait(); // (a halo of other fields, after a restart: the early one is void)
  }
  if (speedsPending_)
  {
    speedsPending_ = false;
    speedsRead_.wait();
  }
  const Stopwatch watch(seconds_.halo, seconds_.halos);
  const std::size_t realSize = layout_.realSize;
  const std::size_t sentBytes = stage(pack_, fields, true, sendStaging_) * realSize;
  waitForQueue();
  queue_.enqueueReadBuffer(sendStaging_, CL_FALSE, 0, sentBytes, sent_.data());
  const cl::Buffer* partials = nextHaloPartials_;
  nextHaloPartials_ = nullptr;
  if (partials)
    readPartials(*partials, nextHaloCount_);
  queue_.finish();
  const std::size_t receivedBytes = trade(fields.size());
  if (partials)
  {
    agreeOnPartialsRead(*partials, nextHaloCount_);
    agreedEarly_ = true;
  }
  queue_.enqueueWriteBuffer(receiveStaging_, CL_FALSE, 0, receivedBytes, received_.data());
  stage(unpack_, fields, false, receiveStaging_);
}

std::vector<CellRect> RankCoupling::sentRects() const
{
  std::vector<CellRect> rects;
  for (const HaloLink& link : links_)
    rects.insert(rects.end(), link.send.begin(), link.send.end());
  return rects;
}

void RankCoupling::sendEarly(const std::vector<const cl::Buffer*>& fields)
{
  sentEarlyBytes_ = stage(pack_, fields, true, sendStaging_) * layout_.realSize;
  queue_.enqueueMarkerWithWaitList(nullptr, &packed_);
  queue_.flush();
  packedFields_ = fields.size();
}

void RankCoupling::completeEarly()
{
  const Stopwatch watch(seconds_.halo, seconds_.halos);
  queue_.flush(); // (what the caller queued after sendEarly runs while this waits)
  // (the wait for the tiles that hold the halo and its packing: device work, timed apart)
  timedWait([this] { packed_.wait(); });
  copyQueue_.enqueueReadBuffer(sendStaging_, CL_TRUE, 0, sentEarlyBytes_, sent_.data());
  const std::size_t receivedBytes = trade(packedFields_);
  copyQueue_.enqueueWriteBuffer(
    receiveStaging_, CL_FALSE, 0, receivedBytes, received_.data(), nullptr, &written_);
  copyQueue_.flush();
  earlyFields_ = packedFields_; // (only now: a trade that failed leaves nothing pending)
}

void RankCoupling::agreeWithNextHalo(const cl::Buffer& partials, std::size_t count)
{
  nextHaloPartials_ = &partials;
  nextHaloCount_ = count;
}

void RankCoupling::agreeOnMaximum(const cl::Buffer& partials, std::size_t count)
{
  nextHaloPartials_ = nullptr;
  if (agreedEarly_)
  {
    agreedEarly_ = false;
    return;
  }
  const Stopwatch watch(seconds_.agree, seconds_.agreements);
  if (speedsPending_)
  {
    speedsPending_ = false;
    timedWait([this] { speedsRead_.wait(); });
  }
  else
  {
    waitForQueue();
    readPartials(partials, count);
    queue_.finish();
  }
  agreeOnPartialsRead(partials, count);
}

void RankCoupling::readSpeedsEarly(const cl::Buffer& partials, std::size_t count)
{
  readPartials(partials, count, &speedsRead_);
  speedsPending_ = true;
}

void RankCoupling::readPartials(const cl::Buffer& partials, std::size_t count, cl::Event* read)
{
  partials_.resize(count * layout_.realSize);
  queue_.enqueueReadBuffer(
    partials, CL_FALSE, 0, partials_.size(), partials_.data(), nullptr, read);
}

void RankCoupling::agreeOnPartialsRead(const cl::Buffer& partials, std::size_t count)
{
  const std::size_t realSize = layout_.realSize;
  double m = realSize == 8 ? largest<double>(partials_.data(), count)
                           : largest<float>(partials_.data(), count);
  exchange_.maxOverRanks(&m, 1);
  // (A maximum of values of the precision is one of them: the conversion back is exact.) Queued
  // without a wait, from memory kept until the next agreement: compute_dt, next on the queue,
  // reads it.
  if (realSize == 8)
  {
    const cl_double v = m;
    std::memcpy(partials_.data(), &v, sizeof v);
  }
  else
  {
    const cl_float v = static_cast<cl_float>(m);
    std::memcpy(partials_.data(), &v, sizeof v);
  }
  queue_.enqueueWriteBuffer(partials, CL_FALSE, 0, realSize, partials_.data());
}
} // namespace swe
