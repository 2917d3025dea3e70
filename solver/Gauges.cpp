#include "Gauges.h"

#include "KernelArgs.h"

#include <algorithm>

namespace swe
{
Gauges::Gauges(const EngineContext& engine, const GridLayout& layout)
  : queue_(engine.queue)
  , precision_(engine.params.precision)
  , count_(static_cast<int>(engine.params.gauges.size()))
  , interval_(engine.params.gaugeInterval)
  , bed_(engine.params.gauges.size(), 0.0)
{
  record_.gauges = count_;
  std::vector<cl_int> cells;
  for (const std::array<double, 2>& at : engine.params.gauges)
  {
    const int i = gaugeCell(at[0], engine.params.dx), j = gaugeCell(at[1], engine.params.dx);
    at_.push_back({ i, j });
    cells.push_back(static_cast<cl_int>(layout.cellOffsetBytes(i, j) / layout.realSize));
  }
  cells_ = cl::Buffer(engine.context,
    CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
    cells.size() * sizeof(cl_int),
    cells.data());
  ring_ = cl::Buffer(engine.context,
    CL_MEM_READ_WRITE,
    static_cast<std::size_t>(kGaugeRingSteps) * (1 + 3 * count_) * layout.realSize);
  for (cl::Kernel& k : sample_)
    k = engine.program.kernel("sample_gauges");
}

void Gauges::setBed(const InitialState& initial)
{
  for (std::size_t g = 0; g < at_.size(); ++g)
    bed_[g] = initial.bed[initial.index(at_[g][0], at_[g][1])];
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
} // namespace swe
