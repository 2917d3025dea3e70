#include "PointSources.h"

#include "GridLayout.h"
#include "KernelArgs.h"

#include <algorithm>
#include <numeric>
#include <vector>

namespace swe
{
namespace
{
// The sources' cells and series as the kernel reads them: for each cell holding sources, its
// column, row and its sources' range [first, end) in `series`; for each source, its series'
// first point and point count in `times` and `values`.
struct SourceLayout
{
  std::vector<cl_int> cells, series;
  std::vector<double> times, values;
};

SourceLayout layOut(const std::vector<PointSource>& sources, double dx)
{
  std::vector<std::array<int, 2>> at(sources.size());
  for (std::size_t k = 0; k < sources.size(); ++k)
    at[k] = { gaugeCell(sources[k].y, dx), gaugeCell(sources[k].x, dx) };
  // (a stable sort keeps the sources of one cell in their order)
  std::vector<std::size_t> order(sources.size());
  std::iota(order.begin(), order.end(), std::size_t{ 0 });
  std::stable_sort(
    order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return at[a] < at[b]; });
  SourceLayout layout;
  for (std::size_t n = 0; n < order.size(); ++n)
  {
    const std::size_t k = order[n];
    if (n == 0 || at[k] != at[order[n - 1]])
      layout.cells.insert(layout.cells.end(), { at[k][1], at[k][0], cl_int(n), cl_int(n) });
    layout.cells.back() = static_cast<cl_int>(n + 1);
    const Series& q = sources[k].discharge;
    layout.series.insert(
      layout.series.end(), { static_cast<cl_int>(layout.times.size()), cl_int(q.size()) });
    for (const auto& point : q)
    {
      layout.times.push_back(point[0]);
      layout.values.push_back(point[1]);
    }
  }
  return layout;
}

// values in the device precision, as a read-only buffer.
cl::Buffer realBuffer(const cl::Context& context, const std::vector<double>& values, Precision p)
{
  if (p == Precision::Double)
    return cl::Buffer(context,
      CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
      values.size() * sizeof(double),
      const_cast<double*>(values.data()));
  std::vector<float> single(values.begin(), values.end());
  return cl::Buffer(
    context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, single.size() * sizeof(float), single.data());
}

cl::Buffer intBuffer(const cl::Context& context, std::vector<cl_int> values)
{
  return cl::Buffer(context,
    CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
    values.size() * sizeof(cl_int),
    values.data());
}
} // namespace

PointSources::PointSources(const EngineContext& engine)
{
  const SimulationParameters& params = engine.params;
  const SourceLayout layout = layOut(sourcesHere(params), params.dx);
  cellCount_ = static_cast<int>(layout.cells.size() / 4);
  cells_ = intBuffer(engine.context, layout.cells);
  series_ = intBuffer(engine.context, layout.series);
  times_ = realBuffer(engine.context, layout.times, params.precision);
  values_ = realBuffer(engine.context, layout.values, params.precision);
  for (cl::Kernel& k : kernels_)
    k = engine.program.kernel("add_sources");
}

void PointSources::bind(int p,
  const std::tuple<const cl::Buffer&, const cl::Buffer&, const cl::Buffer&>& copy,
  const cl::Buffer& ctrl,
  const cl::Buffer& inflow,
  const cl::Buffer& inflowLow)
{
  KernelArgs(Precision::Single) // (no reals among its arguments)
    .bind(kernels_[p],
      copy,
      ctrl,
      inflow,
      inflowLow,
      cl_int{ cellCount_ },
      cells_,
      series_,
      times_,
      values_);
}

void PointSources::add(cl::CommandQueue& queue, int p) const
{
  queue.enqueueNDRangeKernel(kernels_[p],
    cl::NullRange,
    cl::NDRange(roundUp(static_cast<std::size_t>(cellCount_), 64)),
    cl::NDRange(64));
}
} // namespace swe
