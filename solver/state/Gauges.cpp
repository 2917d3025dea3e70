#include "Gauges.h"

#include "Error.h"
#include "KernelArgs.h"

#include <algorithm>
#include <cstring>

namespace swe
{
Gauges::Gauges(const EngineContext& engine, const GridLayout& layout)
  : queue_(engine.queue)
  , layout_(layout)
  , precision_(engine.params.precision)
  , count_(static_cast<int>(engine.params.gauges.size()))
  , interval_(engine.params.gaugeInterval)
  , held_(engine.params.gauges.size(), 1)
  , bed_(engine.params.gauges.size(), 0.0)
{
  record_.gauges = count_;
  for (const std::array<double, 2>& at : engine.params.gauges)
    at_.push_back({ gaugeCell(at[0], engine.params.dx), gaugeCell(at[1], engine.params.dx) });
  cells_ = cl::Buffer(
    engine.context, CL_MEM_READ_ONLY, std::max<std::size_t>(at_.size(), 1) * sizeof(cl_int));
  ring_ = cl::Buffer(engine.context,
    CL_MEM_READ_WRITE,
    static_cast<std::size_t>(kGaugeRingSteps) * (1 + 3 * count_) * layout.realSize);
  for (cl::Kernel& k : sample_)
    k = engine.program.kernel("sample_gauges");
}

void Gauges::setBed(const InitialState& initial)
{
  // (A gauge outside the block samples its first cell, and its samples are the holder's.)
  std::vector<cl_int> cells;
  for (std::size_t g = 0; g < at_.size(); ++g)
  {
    // (held by the rank that owns its cell, not by one whose overlap reaches it)
    const int i = at_[g][0] - initial.x0, j = at_[g][1] - initial.y0;
    const bool held = i >= layout_.ownedI0 && i < layout_.ownedI0 + layout_.ownedColumns() &&
                      j >= layout_.ownedJ0 && j < layout_.ownedJ0 + layout_.ownedRows();
    held_[g] = held;
    bed_[g] = held ? initial.bed[initial.index(i, j)] : 0.0;
    cells.push_back(
      static_cast<cl_int>(layout_.cellOffsetBytes(held ? i : 0, held ? j : 0) / layout_.realSize));
  }
  if (!cells.empty())
    queue_.enqueueWriteBuffer(cells_, CL_TRUE, 0, cells.size() * sizeof(cl_int), cells.data());
}

void Gauges::bind(const std::array<std::array<const cl::Buffer*, 3>, 2>& copies,
  const cl::Buffer& ctrl,
  const cl::Buffer& status)
{
  const KernelArgs args(precision_);
  for (int p = 0; p < 2; ++p)
    args.bind(sample_[p],
      *copies[p][0],
      *copies[p][1],
      *copies[p][2],
      ctrl,
      status,
      cells_,
      ring_,
      static_cast<cl_int>(count_));
}

void Gauges::sample(int p) const
{
  queue_.enqueueNDRangeKernel(sample_[p],
    cl::NullRange,
    cl::NDRange(roundUp(static_cast<std::uint64_t>(count_), 64)),
    cl::NDRange(64));
}

void Gauges::collect(std::int64_t steps)
{
  if (steps <= collected_)
    return;
  const std::size_t width = 1 + 3 * static_cast<std::size_t>(count_);
  // (steps queued past the ring without a read, as a benchmark's enqueueSteps may: the
  // earliest are lost; Simulation's own batches never pass it)
  const std::int64_t first = std::max(collected_ + 1, steps - kGaugeRingSteps + 1);
  // The slots of steps first .. steps, in one or two reads (the ring wraps).
  std::vector<double> slots((steps - first + 1) * width);
  const auto read = [&](std::int64_t from, std::int64_t to, double* out)
  {
    const std::size_t begin = static_cast<std::size_t>(from % kGaugeRingSteps) * width,
                      count = static_cast<std::size_t>(to - from + 1) * width;
    const auto copy = [&](auto zero)
    {
      std::vector<decltype(zero)> raw(count);
      queue_.enqueueReadBuffer(
        ring_, CL_TRUE, begin * sizeof(zero), count * sizeof(zero), raw.data());
      std::copy(raw.begin(), raw.end(), out);
    };
    precision_ == Precision::Double ? copy(cl_double(0)) : copy(cl_float(0));
  };
  const std::size_t firstRow = record_.time.size();
  const std::int64_t wrap = (first / kGaugeRingSteps + 1) * kGaugeRingSteps; // first slot 0 after
  if (steps < wrap)
    read(first, steps, slots.data());
  else
  {
    read(first, wrap - 1, slots.data());
    read(wrap, steps, slots.data() + static_cast<std::size_t>(wrap - first) * width);
  }
  for (std::int64_t s = first; s <= steps; ++s)
  {
    const double* slot = slots.data() + static_cast<std::size_t>(s - first) * width;
    if (interval_ > 0 && !record_.time.empty() && slot[0] < record_.time.back() + interval_)
      continue;
    record_.time.push_back(slot[0]);
    record_.step.push_back(s);
    for (int g = 0; g < count_; ++g)
    {
      const double h = slot[1 + 3 * g], hu = slot[2 + 3 * g], hv = slot[3 + 3 * g];
      const bool wet = h > kDryDepth;
      record_.values.insert(record_.values.end(),
        { h, h + bed_[static_cast<std::size_t>(g)], wet ? hu / h : 0.0, wet ? hv / h : 0.0 });
    }
  }
  collected_ = steps;
  if (ranks_)
    shareSamples(firstRow);
}

void Gauges::shareSamples(std::size_t firstRow)
{
  // Each rank sends which gauges it holds, then their values of the new rows (every rank keeps
  // the same rows: their times are the clock's, the same bits on every rank).
  const std::size_t rows = record_.time.size() - firstRow, width = GaugeRecord::kGaugeValues;
  std::vector<double> mine(held_.begin(), held_.end());
  for (std::size_t row = firstRow; row < record_.time.size(); ++row)
    for (int g = 0; g < count_; ++g)
      if (held_[static_cast<std::size_t>(g)])
        for (std::size_t w = 0; w < width; ++w)
          mine.push_back(record_.value(row, g, static_cast<int>(w)));
  std::vector<unsigned char> bytes(mine.size() * sizeof(double));
  std::memcpy(bytes.data(), mine.data(), bytes.size());
  for (const std::vector<unsigned char>& theirs : ranks_->allGather(bytes))
  {
    std::vector<double> values(theirs.size() / sizeof(double));
    std::memcpy(values.data(), theirs.data(), values.size() * sizeof(double));
    const double* in = values.data() + count_;
    for (std::size_t row = firstRow; row < firstRow + rows; ++row)
      for (int g = 0; g < count_; ++g)
        if (values[static_cast<std::size_t>(g)] != 0)
          for (std::size_t w = 0; w < width; ++w)
            record_.values[(row * static_cast<std::size_t>(count_) + static_cast<std::size_t>(g)) *
                             width +
                           w] = *in++;
  }
}

void Gauges::truncate(std::int64_t steps)
{
  const auto kept = static_cast<std::size_t>(
    std::lower_bound(record_.step.begin(), record_.step.end(), steps) - record_.step.begin());
  record_.time.resize(kept);
  record_.step.resize(kept);
  record_.values.resize(kept * static_cast<std::size_t>(count_) * GaugeRecord::kGaugeValues);
  collected_ = steps - 1;
}

void Gauges::seed(const GaugeRecord& record)
{
  if (record.gauges != count_ ||
      record.values.size() != record.time.size() * count_ * GaugeRecord::kGaugeValues ||
      record.step.size() != record.time.size())
    throw Error("the restart state holds the samples of " + std::to_string(record.gauges) +
                " gauges, the run has " + std::to_string(count_) +
                ": continue it with the gauges it was written with");
  record_ = record;
  collected_ = record.step.empty() ? -1 : record.step.back();
}
} // namespace swe
