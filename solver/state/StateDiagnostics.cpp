#include "StateDiagnostics.h"

#include "KernelArgs.h"

namespace swe
{
StateDiagnostics::StateDiagnostics(const EngineContext& engine,
  const DeviceState& state,
  std::size_t partials)
  : queue_(engine.queue)
  , grid_(engine.grid)
  , state_(state)
  , params_(engine.params)
{
  const cl::Context& context = engine.context;
  const GridLaunch& grid = engine.grid;
  const std::size_t realSize = state.layout().realSize;
  const std::size_t bytes = std::max(static_cast<std::size_t>(grid.groups), partials) * realSize;
  sum_ = cl::Buffer(context, CL_MEM_READ_WRITE, bytes);
  maxDepth_ = cl::Buffer(context, CL_MEM_READ_WRITE, bytes);
  maxSpeed_ = cl::Buffer(context, CL_MEM_READ_WRITE, bytes);
  result_ = cl::Buffer(context, CL_MEM_READ_WRITE, 3 * realSize);
  const KernelArgs args(params_.precision);
  for (int p = 0; p < 2; ++p)
  {
    partials_[p] = engine.program.kernel("diagnostics_partials");
    args.bind(partials_[p], state.copy(p).args(), sum_, maxDepth_, maxSpeed_);
  }
  final_ = engine.program.kernel("diagnostics_final");
  args.bind(final_, sum_, maxDepth_, maxSpeed_, static_cast<cl_int>(grid.groups), result_);
}

Diagnostics StateDiagnostics::compute()
{
  queue_.enqueueNDRangeKernel(partials_[state_.parity], cl::NullRange, grid_.global, grid_.local);
  queue_.enqueueNDRangeKernel(final_, cl::NullRange, grid_.reduce, grid_.reduce);
  const std::vector<double> r = readReals(queue_, result_, 3, params_.precision);
  Diagnostics d;
  d.mass = r[0] * params_.dx * params_.dx;
  d.maxDepth = r[1];
  d.maxSpeed = r[2];
  return d;
}
} // namespace swe
