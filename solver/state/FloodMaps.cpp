#include "FloodMaps.h"

#include "KernelArgs.h"
#include "clock_slots.h"

#include <limits>

namespace swe
{
namespace
{
constexpr int kArrivalMap = 3;
} // namespace

cl::NDRange cellPassRange(const GridLayout& layout)
{
  return cl::NDRange(roundUp(static_cast<std::uint64_t>(layout.nx), kPassGroupX),
    (layout.ny + kPassRows - 1) / kPassRows);
}

bool stepsFoldFloodMaps(const SimulationParameters& params, const LaunchShape& shape)
{
  return params.floodMaps && isSecondOrder(params.scheme) && !shape.wholeRows;
}

FloodMaps::FloodMaps(const EngineContext& engine, const GridLayout& layout)
  : queue_(engine.queue)
  , layout_(layout)
  , precision_(engine.params.precision)
  , arrivalDepth_(engine.params.arrivalDepth)
  , global_(cellPassRange(layout))
  , local_(kPassGroupX, 1)
{
  for (cl::Buffer& map : maps_)
    map = cl::Buffer(engine.context, CL_MEM_READ_WRITE, layout_.bufferBytes());
  for (auto& copy : fold_)
    for (cl::Kernel& k : copy)
      k = engine.program.kernel("fold_flood_maps");
}

void FloodMaps::bind(const std::array<std::array<const cl::Buffer*, 3>, 2>& copies,
  const cl::Buffer& ctrl,
  const std::array<const cl::Buffer*, 2>& tiles)
{
  ctrl_ = &ctrl;
  const KernelArgs args(precision_);
  for (int p = 0; p < 2; ++p)
    for (int step = 0; step < 2; ++step)
      args.bind(fold_[p][step],
        *copies[p][0],
        *copies[p][1],
        *copies[p][2],
        ctrl,
        maps_[0],
        maps_[1],
        maps_[2],
        maps_[3],
        maps_[4],
        Real{ arrivalDepth_ },
        static_cast<cl_int>(step ? CTRL_DT : CTRL_STATE_DT),
        *tiles[p]);
}

void FloodMaps::reset()
{
  const std::size_t bytes = layout_.bufferBytes();
  for (int k = 0; k < kFloodMapCount; ++k)
  {
    if (k != kArrivalMap)
      queue_.enqueueFillBuffer(maps_[k], cl_uchar(0), 0, bytes);
    else if (precision_ == Precision::Double)
      queue_.enqueueFillBuffer(maps_[k], std::numeric_limits<cl_double>::quiet_NaN(), 0, bytes);
    else
      queue_.enqueueFillBuffer(maps_[k], std::numeric_limits<cl_float>::quiet_NaN(), 0, bytes);
  }
}

void FloodMaps::fold(int p, bool step) const
{
  queue_.enqueueNDRangeKernel(fold_[p][step ? 1 : 0], cl::NullRange, global_, local_);
}

void FloodMaps::settle(int p) const
{
  fold(p, false);
  // (zero bytes are 0 in either precision)
  const std::size_t realSize = layout_.realSize;
  queue_.enqueueFillBuffer(*ctrl_, cl_uchar(0), CTRL_STATE_DT * realSize, realSize);
}
} // namespace swe
