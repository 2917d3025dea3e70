#include "RankCoupling.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace swe
{
namespace
{
// A rectangle of a field's cells as rectangle copies take it: origin and region in bytes and rows.
struct RectCopy
{
  std::array<std::size_t, 3> origin, region;
};

RectCopy rectCopy(const GridLayout& layout, const CellRect& r)
{
  // (i0 >= -kGhost, and the offset holds the left ghost layers)
  const std::size_t x = static_cast<std::size_t>(static_cast<long>(layout.offset()) + r.i0);
  return { { x * layout.realSize, static_cast<std::size_t>(r.j0 + kGhost), 0 },
    { static_cast<std::size_t>(r.nx) * layout.realSize, static_cast<std::size_t>(r.ny), 1 } };
}

std::size_t rectBytes(const std::vector<CellRect>& rects, std::size_t realSize, std::size_t fields)
{
  std::size_t cells = 0;
  for (const CellRect& r : rects)
    cells += r.cells();
  return cells * realSize * fields;
}

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

RankCoupling::RankCoupling(cl::CommandQueue& queue,
  const GridLayout& layout,
  const Partition& partition,
  RankExchange& exchange)
  : queue_(queue)
  , layout_(layout)
  , partition_(partition)
  , exchange_(exchange)
  , links_(partition.haloLinks())
  , sent_(links_.size())
  , received_(links_.size())
{
}

void RankCoupling::waitForQueue()
{
  const auto start = std::chrono::steady_clock::now();
  queue_.finish();
  seconds_.wait += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void RankCoupling::exchangeHalo(const std::vector<const cl::Buffer*>& fields)
{
  const Stopwatch watch(seconds_.halo, seconds_.halos);
  waitForQueue();
  const std::size_t realSize = layout_.realSize, rowPitch = layout_.rowPitchBytes();
  std::vector<RankExchange::Message> sends, receives;
  for (std::size_t l = 0; l < links_.size(); ++l)
  {
    const HaloLink& link = links_[l];
    sent_[l].resize(rectBytes(link.send, realSize, fields.size()));
    received_[l].resize(rectBytes(link.receive, realSize, fields.size()));
    unsigned char* out = sent_[l].data();
    for (const cl::Buffer* field : fields)
      for (const CellRect& r : link.send)
      {
        const RectCopy c = rectCopy(layout_, r);
        queue_.enqueueReadBufferRect(
          *field, CL_FALSE, c.origin, { 0, 0, 0 }, c.region, rowPitch, 0, c.region[0], 0, out);
        out += r.cells() * realSize;
      }
    sends.push_back({ link.peer, 0, sent_[l].data(), sent_[l].size() });
    receives.push_back({ link.peer, 0, received_[l].data(), received_[l].size() });
  }
  queue_.finish();
  exchange_.exchange(sends, receives);
  for (std::size_t l = 0; l < links_.size(); ++l)
  {
    const unsigned char* in = received_[l].data();
    for (const cl::Buffer* field : fields)
      for (const CellRect& r : links_[l].receive)
      {
        const RectCopy c = rectCopy(layout_, r);
        queue_.enqueueWriteBufferRect(
          *field, CL_FALSE, c.origin, { 0, 0, 0 }, c.region, rowPitch, 0, c.region[0], 0, in);
        in += r.cells() * realSize;
      }
  }
}

void RankCoupling::agreeOnMaximum(const cl::Buffer& partials, std::size_t count)
{
  const Stopwatch watch(seconds_.agree, seconds_.agreements);
  waitForQueue();
  const std::size_t realSize = layout_.realSize;
  partials_.resize(count * realSize);
  queue_.enqueueReadBuffer(partials, CL_TRUE, 0, partials_.size(), partials_.data());
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
