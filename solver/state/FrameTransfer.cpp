#include "FrameTransfer.h"

#include "DeviceLimits.h"

#include <algorithm>
#include <cmath>

namespace swe
{
namespace
{
constexpr int kRangeValues = 17; // per group: 8 (min, max) pairs and the denormal flag
} // namespace

// The parts of a state on its way to the host: the rows in parts of about 8 MiB, at most 16
// (each part is three reads on the second queue, one a field), so that the first part's bus copy
// is the host's only wait.
struct FrameTransfer::Parts
{
  int count = 1;
  int ny = 0;
  std::vector<cl::Event> read; // the last read of each part
  cl::Event rangesRead;
  bool haveRanges = false;
  int row(int part) const { return static_cast<int>(static_cast<std::int64_t>(ny) * part / count); }
};

FrameTransfer::FrameTransfer(const EngineContext& engine,
  const DeviceFeatures& features,
  const DeviceState& state,
  const DeviceInfo& info,
  bool perCellManning)
  : context_(engine.context)
  , queue_(engine.queue)
  , grid_(engine.grid)
  , state_(state)
  , info_(info)
  , params_(engine.params)
  , perCellManning_(perCellManning)
{
  if (features.fp64)
    packWithRanges_ = engine.program.kernel("pack_frame_state");
}

void FrameTransfer::ensureHostState()
{
  if (!hostState_.allocated())
    hostState_.allocate(context_, queue_, state_.fieldCount() * state_.layout().fieldBytes());
  hostStateData_ = hostState_.data();
}

// Made on the first call where the device memory has room beside the simulation's own buffers.
bool FrameTransfer::haveFrameState()
{
  if (frameStateTried_)
    return frameState_() != nullptr;
  frameStateTried_ = true;
  const std::uint64_t bytes =
    state_.fieldCount() * static_cast<std::uint64_t>(state_.layout().fieldBytes());
  const std::uint64_t used = deviceBytesUsed(state_.layout(), params_, perCellManning_);
  if (used + bytes > info_.globalMemory / 10 * 9)
    return false;
  try
  {
    frameState_ = cl::Buffer(context_, CL_MEM_READ_WRITE, bytes);
    copyQueue_ = cl::CommandQueue(context_, queue_.getInfo<CL_QUEUE_DEVICE>());
  }
  catch (const cl::Error&)
  {
    frameState_ = cl::Buffer();
  }
  return frameState_() != nullptr;
}

// state_.pack(to, packed) on the main queue, taking the frame's bounds on the way, whose read
// into rangePartialsHost_ onQueue then enqueues (done: read). False without fp64: nothing
// enqueued.
bool FrameTransfer::packWithRanges(const cl::Buffer& to,
  cl::Event* packed,
  cl::CommandQueue& onQueue,
  cl::Event* read)
{
  if (!packWithRanges_())
    return false;
  if (!rangePartials_())
  {
    // A group a row, up to enough groups to fill a GPU.
    const std::size_t group = grid_.reduce[0];
    const std::size_t groups = std::clamp<std::size_t>(params_.ny, 1, 1024);
    rangeGlobal_ = cl::NDRange(groups * group);
    rangePartialsHost_.resize(groups * kRangeValues);
    rangePartials_ =
      cl::Buffer(context_, CL_MEM_READ_WRITE, rangePartialsHost_.size() * sizeof(cl_double));
  }
  for (int f = 0; f < 3; ++f)
    packWithRanges_.setArg(f, state_.field(static_cast<Field>(f)));
  packWithRanges_.setArg(3, state_.bed());
  packWithRanges_.setArg(4, to);
  packWithRanges_.setArg(5, rangePartials_);
  std::vector<cl::Event> done(1);
  queue_.enqueueNDRangeKernel(
    packWithRanges_, cl::NullRange, rangeGlobal_, grid_.reduce, nullptr, &done[0]);
  if (packed)
    *packed = done[0];
  onQueue.enqueueReadBuffer(rangePartials_,
    CL_FALSE,
    0,
    rangePartialsHost_.size() * sizeof(cl_double),
    rangePartialsHost_.data(),
    &done,
    read);
  return true;
}

// The bounds from the partials read: every quantity unknown where a group saw a denormal (then
// VTK computes them when asked).
FrameRanges FrameTransfer::rangesRead() const
{
  FrameRanges ranges;
  for (std::size_t g = 0; g < rangePartialsHost_.size(); g += kRangeValues)
  {
    const bool denormal = rangePartialsHost_[g + 16] != 0;
    for (int q = 0; q < FrameRanges::Count; ++q)
      ranges.widen(static_cast<FrameRanges::Quantity>(q),
        denormal ? std::nan("") : rangePartialsHost_[g + 2 * q],
        rangePartialsHost_[g + 2 * q + 1]);
  }
  return ranges;
}

const unsigned char* FrameTransfer::download()
{
  ensureHostState();
  state_.read(hostStateData_);
  return hostStateData_;
}

std::optional<FrameRanges> FrameTransfer::ranges()
{
  cl::Event read;
  if (!haveFrameState() || !packWithRanges(frameState_, nullptr, queue_, &read))
    return std::nullopt;
  read.wait();
  return rangesRead();
}

// Queues the copy on the device and the parts' reads on the second queue, then the steps (false:
// no room for the copy, so the state was read first).
bool FrameTransfer::enqueueOverlapped(Parts& parts, const std::function<void()>& startAdvance)
{
  ensureHostState();
  if (!haveFrameState())
  {
    state_.read(hostStateData_);
    startAdvance();
    return false;
  }
  // The copy on the device takes a fraction of a millisecond; the bus copy then overlaps the
  // steps, on the other queue. On a GPU the frame's bounds on the way (one pass over the state,
  // read on the second queue before the rows); a CPU device gathers them cheaper in the host's
  // pass over the rows, or where the device has no fp64.
  const bool wantsDeviceRanges =
    info_.type == "GPU" || params_.buildOptions.find("-DSWE_DEVICE_RANGES") != std::string::npos;
  std::vector<cl::Event> copied(1);
  parts.haveRanges =
    wantsDeviceRanges && packWithRanges(frameState_, &copied[0], copyQueue_, &parts.rangesRead);
  if (!parts.haveRanges)
    state_.pack(frameState_, &copied[0]);
  else if (state_.fieldCount() > kStateFields)
    state_.pack(frameState_, &copied.emplace_back(), kStateFields); // the flood maps
  const std::size_t fieldBytes = state_.layout().fieldBytes(),
                    rowBytes = state_.layout().packedRowBytes();
  for (int part = 0; part < parts.count; ++part)
  {
    const std::size_t begin = static_cast<std::size_t>(parts.row(part)) * rowBytes,
                      end = static_cast<std::size_t>(parts.row(part + 1)) * rowBytes;
    const int fields = state_.fieldCount();
    for (int f = 0; f < fields; ++f)
      copyQueue_.enqueueReadBuffer(frameState_,
        CL_FALSE,
        f * fieldBytes + begin,
        end - begin,
        hostStateData_ + f * fieldBytes + begin,
        &copied,
        f == fields - 1 ? &parts.read[static_cast<std::size_t>(part)] : nullptr);
  }
  startAdvance(); // flushes the copies too
  copyQueue_.flush();
  return true;
}

// Hands the overlapped state to consume while its parts arrive, and waits for the rest.
void FrameTransfer::deliver(StateView& view, Parts& parts, const StateConsumer& consume)
{
  // Whatever happens to the rows, no read may still be writing into the host state when this
  // returns (the next download reuses it).
  struct FinishReads
  {
    cl::CommandQueue& queue;
    ~FinishReads()
    {
      try
      {
        queue.finish();
      }
      catch (...) // an error already on its way out, or one finish() reports again
      {
      }
    }
  } finishReads{ copyQueue_ };
  if (parts.haveRanges)
    view.ranges = [this, read = parts.rangesRead]() mutable
    {
      return guarded("computing the frame's ranges",
        [&]
        {
          read.wait();
          return std::optional<FrameRanges>(rangesRead());
        });
    };
  const RowsWait waitForRows = [&](int rowEnd)
  {
    // The part that holds row rowEnd - 1 (reads complete in order: the earlier parts are in).
    int part = 0;
    while (part + 1 < parts.count && parts.row(part + 1) < rowEnd)
      ++part;
    guarded("downloading the state", [&] { parts.read[static_cast<std::size_t>(part)].wait(); });
  };
  if (consume)
    consume(view, waitForRows);
  waitForRows(view.ny);
}

void FrameTransfer::downloadThenAdvance(StateView& view,
  const StateConsumer& consume,
  const std::function<void()>& startAdvance)
{
  Parts parts;
  parts.ny = view.ny;
  const std::size_t rowBytes = view.fields * static_cast<std::size_t>(view.nx) * view.realSize;
  parts.count = consume ? static_cast<int>(std::clamp<std::size_t>(
                            rowBytes * static_cast<std::size_t>(view.ny) / (8u << 20), 1, 16))
                        : 1;
  parts.read.resize(static_cast<std::size_t>(parts.count));
  const bool overlapped =
    guarded("downloading the state", [&] { return enqueueOverlapped(parts, startAdvance); });
  view.data = hostStateData_;
  if (overlapped)
    deliver(view, parts, consume);
  else if (consume)
    consume(view, [](int) {});
}
} // namespace swe
