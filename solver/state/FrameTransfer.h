#pragma once
// A frame's way to the host. The state is read into host memory kept for it (page-locked where the
// driver gives it: the bus copy runs at full speed), either at once or, where the device has room
// for a packed copy of the state, from that copy on a second queue while the main queue takes the
// next frame's steps, in parts whose arrival the host can wait for row by row. On a GPU the bounds
// of the frame's derived values are reduced on the device as the state is packed
// (pack_frame_state), and read before the rows.
#include "DeviceProgram.h"
#include "DeviceState.h"
#include "Devices.h"
#include "OpenCL.h"
#include "PinnedHostMemory.h"
#include "Parameters.h"
#include "SimulationTypes.h"

#include <functional>
#include <optional>
#include <vector>

namespace swe
{
class FrameTransfer
{
public:
  FrameTransfer(const EngineContext& engine,
    const DeviceFeatures& features,
    const DeviceState& state,
    const DeviceInfo& info,
    bool perCellManning);
  FrameTransfer(const FrameTransfer&) = delete;
  FrameTransfer& operator=(const FrameTransfer&) = delete;

  // The state into the host memory, waited for; valid until the next download.
  const unsigned char* download();
  // The state into the host memory while startAdvance's steps run (overlapped where the device
  // has room for the copy, else downloaded first): sets view's data, and on a GPU its ranges;
  // calls consume, when given, while the rows arrive, and returns once every part is in.
  void downloadThenAdvance(StateView& view,
    const StateConsumer& consume,
    const std::function<void()>& startAdvance);
  // The bounds of the frame's derived values for the live state, computed on the device; none
  // without fp64 or room for the copy.
  std::optional<FrameRanges> ranges();
  // Device bytes of the frame's copy of the state, where made.
  std::uint64_t deviceBytes() const
  {
    return frameState_() ? frameState_.getInfo<CL_MEM_SIZE>() : 0;
  }

private:
  struct Parts;
  void ensureHostState();
  bool haveFrameState();
  bool packWithRanges(const cl::Buffer& to,
    cl::Event* packed,
    cl::CommandQueue& onQueue,
    cl::Event* read);
  FrameRanges rangesRead() const;
  bool enqueueOverlapped(Parts& parts, const std::function<void()>& startAdvance);
  void deliver(StateView& view, Parts& parts, const StateConsumer& consume);

  cl::Context context_;
  cl::CommandQueue& queue_;
  const GridLaunch& grid_;
  const DeviceState& state_;
  const DeviceInfo& info_;
  const SimulationParameters& params_;
  bool perCellManning_;
  // The host memory, allocated on first use, and its data (null until then).
  PinnedHostMemory hostState_;
  unsigned char* hostStateData_ = nullptr;
  // The state copied on the device (h, hu, hv packed, as the host view) and the queue that reads
  // it; made on first use where the device has room.
  cl::Buffer frameState_;
  cl::CommandQueue copyQueue_;
  bool frameStateTried_ = false;
  // The frame's bounds on the device (needs fp64): per-group partials read to the host and
  // widened there.
  cl::Kernel packWithRanges_;
  cl::Buffer rangePartials_;
  std::vector<cl_double> rangePartialsHost_;
  cl::NDRange rangeGlobal_;
};
} // namespace swe
