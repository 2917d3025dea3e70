#include "DeviceState.h"

#include "Error.h"
#include "KernelArgs.h"
#include "RankCoupling.h"

#include <algorithm>
#include <limits>

namespace swe
{
DeviceState::DeviceState(const EngineContext& engine,
  const GridLayout& layout,
  bool perCellManning,
  double datum)
  : queue_(engine.queue)
  , params_(engine.params)
  , layout_(layout)
  , perCellManning_(perCellManning)
  , datum_(datum)
  , stepsFoldMaps_(engine.grid.stepsFoldMaps)
  , tiles_(engine, engine.grid.tiles)
{
  const cl::Context& context = engine.context;
  const std::size_t bytes = layout_.bufferBytes();
  for (Copy& c : copies_)
  {
    c.h = cl::Buffer(context, CL_MEM_READ_WRITE, bytes);
    c.hu = cl::Buffer(context, CL_MEM_READ_WRITE, bytes);
    c.hv = cl::Buffer(context, CL_MEM_READ_WRITE, bytes);
  }
  bed_ = cl::Buffer(context, CL_MEM_READ_WRITE, bytes);
  // (the rain's factors, where the run rains per cell, behind the Manning field: RAIN_PLANE)
  manningField_ = cl::Buffer(context,
    CL_MEM_READ_ONLY,
    perCellManning_ ? bytes * (engine.params.rainPerCell ? 2 : 1) : layout_.realSize);
  const KernelArgs args(engine.params.precision);
  for (int p = 0; p < 2; ++p)
  {
    fillGhosts_[p] = engine.program.kernel("fill_ghosts");
    args.bind(fillGhosts_[p], copies_[p].args(), bed_);
  }
  if (engine.params.floodMaps)
    maps_.emplace(engine, layout_);
  else
    noMaps_ = cl::Buffer(context, CL_MEM_READ_WRITE, layout_.realSize);
  if (!engine.params.gauges.empty())
    gauges_.emplace(engine, layout_);
  if (!sourcesHere(engine.params).empty())
    sources_.emplace(engine);
  if (engine.params.infiltration.on())
  {
    infiltrated_ = cl::Buffer(context, CL_MEM_READ_WRITE, bytes);
    // (a soil map's K, then P: two planes; else a placeholder argument)
    soil_ = cl::Buffer(
      context, CL_MEM_READ_ONLY, engine.params.infiltration.perCell ? 2 * bytes : layout_.realSize);
    for (cl::Kernel& k : infiltrate_)
      k = engine.program.kernel("infiltrate");
    kept_.push_back(&infiltrated_);
  }
  // (sources write it where there is no balance, so a placeholder then)
  inflow_ = cl::Buffer(context, CL_MEM_READ_WRITE, engine.params.waterBalance ? bytes : 64);
  inflowLow_ = cl::Buffer(context, CL_MEM_READ_WRITE, lowPartBytes() > 0 ? bytes : 64);
  if (engine.params.waterBalance)
  {
    for (cl::Kernel& k : foldInflow_)
      k = engine.program.kernel("fold_boundary_inflow");
    kept_.push_back(&inflow_);
  }
  if (maps_)
    for (int k = 0; k < kFloodMapCount; ++k)
      kept_.push_back(&maps_->map(k));
}

void DeviceState::bindClock(const cl::Buffer& ctrl, const cl::Buffer& status)
{
  for (cl::Kernel& k : fillGhosts_)
    k.setArg(4, ctrl); // (a side's series is taken at the clock's time)
  for (int p = 0; p < 2; ++p)
  {
    if (sources_)
      sources_->bind(p, copies_[p].args(), ctrl, inflow_, inflowLow_);
    if (infiltrate_[p]())
      KernelArgs(Precision::Single) // (no reals among its arguments)
        .bind(infiltrate_[p], copies_[p].args(), infiltrated_, ctrl, soil_, tiles_.flags(p));
  }
  for (int p = 0; p < 2; ++p)
    if (foldInflow_[p]())
      KernelArgs(params_.precision)
        .bind(foldInflow_[p],
          copies_[p].args(),
          bed_,
          inflow_,
          inflowLow_,
          ctrl,
          status,
          Real{ 1.0 / params_.dx },
          // (MUSCL-HLLC's two stages each give half: Heun's average)
          Real{ params_.scheme == Scheme::MusclHllc ? 0.5 : 1.0 },
          cl_int{ params_.scheme == Scheme::MusclHancock ? 1 : 0 });
  std::array<std::array<const cl::Buffer*, 3>, 2> copies;
  for (int p = 0; p < 2; ++p)
    copies[p] = { &copies_[p].h, &copies_[p].hu, &copies_[p].hv };
  if (maps_)
    maps_->bind(copies, ctrl, { &tiles_.flags(0), &tiles_.flags(1) });
  if (gauges_)
    gauges_->bind(copies, ctrl, status);
}

void DeviceState::couple(RankCoupling* coupling)
{
  coupling_ = coupling;
  if (gauges_ && coupling)
    gauges_->couple(coupling->ranks());
}

bool DeviceState::sendsHaloEarly(bool here) const
{
  if (!coupling_)
    return false;
  // (the grid's sources, not the block's; and every rank agrees, as each trades at the same
  // steps while their launch shapes may differ)
  double refused = here && params_.sources.empty() && !params_.infiltration.on() ? 0.0 : 1.0;
  coupling_->ranks().maxOverRanks(&refused, 1);
  return refused == 0.0;
}

std::vector<CellRect> DeviceState::haloSent() const
{
  return coupling_ ? coupling_->sentRects() : std::vector<CellRect>{};
}

void DeviceState::sendHaloEarly(int p)
{
  // (the halo holds ghost cells of the grid's sides where a neighbour's block meets them: they
  // are filled for the new state first, as the next step's fill would)
  fillGhosts(p, Halo::None);
  const Copy& c = copies_[p];
  coupling_->sendEarly({ &c.h, &c.hu, &c.hv });
}

void DeviceState::completeHaloEarly()
{
  coupling_->completeEarly();
}

void DeviceState::restoredAt(std::int64_t steps, const GaugeRecord& record)
{
  if (!gauges_)
    return;
  if (record.time.empty())
    gauges_->truncate(steps);
  else
    gauges_->seed(record);
  gauges_->sample(0);
  gauges_->collect(steps);
}

void DeviceState::foldBoundaryInflow(int p) const
{
  if (foldInflow_[p]())
    queue_.enqueueNDRangeKernel(foldInflow_[p],
      cl::NullRange,
      cl::NDRange(roundUp(layout_.boundaryCells(), 64)),
      cl::NDRange(64));
}

void DeviceState::afterStep(int p, bool step) const
{
  if (step && sources_)
    sources_->add(queue_, p);
  if (step && infiltrate_[p]())
    queue_.enqueueNDRangeKernel(
      infiltrate_[p], cl::NullRange, cellPassRange(layout_), cl::NDRange(kPassGroupX, 1));
  if (maps_ && !(step && stepsFoldMaps_))
    maps_->fold(p, step);
  if (gauges_)
    gauges_->sample(p);
}

void DeviceState::afterBatch(int p) const
{
  if (maps_ && stepsFoldMaps_)
    maps_->settle(p);
}

const cl::Buffer& DeviceState::stateBuffer(int f, int p) const
{
  switch (f)
  {
    case 0:
      return copies_[p].h;
    case 1:
      return copies_[p].hu;
    case 2:
      return copies_[p].hv;
  }
  return *kept_[static_cast<std::size_t>(f - kStateFields)];
}

const cl::Buffer& DeviceState::field(Field field) const
{
  switch (field)
  {
    case Field::Depth:
      return copies_[parity].h;
    case Field::MomentumX:
      return copies_[parity].hu;
    case Field::MomentumY:
      return copies_[parity].hv;
    case Field::Bed:
      return bed_;
    case Field::Infiltration:
      return infiltrated_;
    case Field::Inflow:
      return inflow_;
    default:
      break;
  }
  return maps_->map(static_cast<int>(field) - static_cast<int>(Field::MaxDepth));
}

// A whole buffer from nx * ny values: values - offset (the local datum, for elevations) in the
// device precision, ghosts and padding zero. Padded rows are made a few MiB at a time, two
// blocks taking turns (one is filled while the other is written): no host copy of the grid and
// no fill of the buffer before it, one pass over the device's memory.
template<class Device>
void DeviceState::uploadWholeAs(const cl::Buffer& buffer,
  const std::vector<double>& values,
  double offset,
  std::size_t atByte)
{
  const std::size_t rowCells = layout_.pitch(),
                    rows = static_cast<std::size_t>(layout_.ny) + 2 * kGhost;
  const std::size_t nx = static_cast<std::size_t>(layout_.nx);
  const std::size_t blockRows =
    std::clamp<std::size_t>((std::size_t(4) << 20) / (rowCells * sizeof(Device)), 1, rows);
  std::array<std::vector<Device>, 2> block;
  std::array<cl::Event, 2> written;
  for (std::size_t first = 0, k = 0; first < rows; first += blockRows, k = 1 - k)
  {
    const std::size_t count = std::min(blockRows, rows - first);
    if (written[k]())
      written[k].wait();
    block[k].assign(count * rowCells, Device(0));
    for (std::size_t row = std::max<std::size_t>(first, kGhost);
         row < std::min<std::size_t>(first + count, kGhost + layout_.ny);
         ++row)
    {
      const double* in = values.data() + (row - kGhost) * nx;
      Device* out = block[k].data() + (row - first) * rowCells + layout_.offset();
      // (NaN only in a closed cell's bed: the wall of kClosedBed)
      for (std::size_t i = 0; i < nx; ++i)
        out[i] = static_cast<Device>(in[i] == in[i] ? in[i] - offset : kClosedBed);
    }
    queue_.enqueueWriteBuffer(buffer,
      CL_FALSE,
      atByte + first * rowCells * sizeof(Device),
      count * rowCells * sizeof(Device),
      block[k].data(),
      nullptr,
      &written[k]);
  }
  for (cl::Event& event : written)
    if (event())
      event.wait();
}

void DeviceState::uploadWhole(const cl::Buffer& buffer,
  const std::vector<double>& values,
  double offset,
  std::size_t atByte)
{
  if (layout_.realSize == sizeof(cl_double))
    uploadWholeAs<cl_double>(buffer, values, offset, atByte);
  else
    uploadWholeAs<cl_float>(buffer, values, offset, atByte);
}

void DeviceState::upload(const InitialState& initial)
{
  uploadWhole(bed_, initial.bed, datum_);
  if (perCellManning_)
    uploadWhole(manningField_,
      initial.closedCells() > 0 || !initial.rain.empty() ? initial.manningField(params_.manning)
                                                         : initial.manning);
  if (params_.rainPerCell)
    uploadWhole(manningField_,
      params_.rainZones.empty() ? initial.rain : initial.rainZonesOpen(),
      0,
      layout_.bufferBytes());
  if (params_.infiltration.perCell)
  {
    const SoilMap soil = soilMap(initial, params_.infiltration);
    uploadWhole(soil_, soil.conductivity);
    uploadWhole(soil_, soil.suctionDeficit, 0, layout_.bufferBytes());
  }
  for (const cl::Buffer* b : { &copies_[1].h, &copies_[1].hu, &copies_[1].hv })
    queue_.enqueueFillBuffer(*b, cl_uchar(0), 0, layout_.bufferBytes());
  uploadWhole(copies_[0].h, initial.h);
  uploadWhole(copies_[0].hu, initial.hu);
  uploadWhole(copies_[0].hv, initial.hv);
  if (maps_)
    maps_->reset();
  for (const cl::Buffer* b : { &infiltrated_, &inflow_ })
    if (std::find(kept_.begin(), kept_.end(), b) != kept_.end())
      queue_.enqueueFillBuffer(*b, cl_uchar(0), 0, layout_.bufferBytes());
  if (gauges_)
    gauges_->setBed(initial);
  clearInflowLow();
  tiles_.reset();
}

void DeviceState::clearInflowLow() const
{
  queue_.enqueueFillBuffer(inflowLow_, cl_uchar(0), 0, inflowLow_.getInfo<CL_MEM_SIZE>());
}

std::size_t DeviceState::lowPartBytes() const
{
  return params_.waterBalance && params_.precision == Precision::Single ? layout_.bufferBytes() : 0;
}

void DeviceState::clear()
{
  for (const Copy& c : copies_)
    for (const cl::Buffer* b : { &c.h, &c.hu, &c.hv })
      queue_.enqueueFillBuffer(*b, cl_uchar(0), 0, layout_.bufferBytes());
  tiles_.reset();
}

void DeviceState::fillGhosts(int p, Halo halo)
{
  queue_.enqueueNDRangeKernel(
    fillGhosts_[p], cl::NullRange, cl::NDRange(roundUp(layout_.ghostCells(), 64)), cl::NDRange(64));
  exchangeHalo(p, halo);
}

void DeviceState::exchangeHalo(int p, Halo halo)
{
  if (!coupling_ || halo == Halo::None)
    return;
  const Copy& c = copies_[p];
  // An overlap's cells lose water to Green-Ampt as their owner's do only if they also hold its
  // cumulative infiltration (kernels/state/infiltration.cl). (pack_halo takes four fields at most.)
  const bool infiltration = infiltrate_[0]() && !params_.ownsWholeBlock();
  std::vector<const cl::Buffer*> fields{ &c.h, &c.hu, &c.hv };
  if (halo == Halo::StateAndBed)
    fields.push_back(&bed_);
  else if (infiltration)
    fields.push_back(&infiltrated_);
  coupling_->exchangeHalo(fields);
  if (halo == Halo::StateAndBed && infiltration)
    coupling_->exchangeHalo({ &infiltrated_ });
}

template<class T>
void DeviceState::readInterior(const cl::Buffer& buffer, T* values, cl_bool blocking) const
{
  queue_.enqueueReadBufferRect(buffer,
    blocking,
    layout_.interiorOrigin(),
    { 0, 0, 0 },
    layout_.interiorRegion(),
    layout_.rowPitchBytes(),
    0,
    layout_.packedRowBytes(),
    0,
    values);
}

void DeviceState::read(unsigned char* out, std::vector<unsigned char>* lowParts) const
{
  for (int f = 0; f < fieldCount(); ++f)
    readInterior(stateBuffer(f, parity), out + f * layout_.fieldBytes(), CL_FALSE);
  if (lowParts)
    lowParts->resize(lowPartBytes());
  if (lowParts && !lowParts->empty())
    queue_.enqueueReadBuffer(inflowLow_, CL_FALSE, 0, lowParts->size(), lowParts->data());
  queue_.finish();
}

void DeviceState::write(const unsigned char* in, const std::vector<unsigned char>& lowParts)
{
  for (int f = 0; f < fieldCount(); ++f)
    queue_.enqueueWriteBufferRect(stateBuffer(f, 0),
      CL_TRUE,
      layout_.interiorOrigin(),
      { 0, 0, 0 },
      layout_.interiorRegion(),
      layout_.rowPitchBytes(),
      0,
      layout_.packedRowBytes(),
      0,
      in + f * layout_.fieldBytes());
  if (!lowParts.empty() && lowParts.size() == lowPartBytes())
    queue_.enqueueWriteBuffer(inflowLow_, CL_TRUE, 0, lowParts.size(), lowParts.data());
  else
    clearInflowLow();
  tiles_.reset();
}

void DeviceState::pack(const cl::Buffer& to, cl::Event* done, int firstField) const
{
  const int fields = fieldCount();
  const std::size_t at = fields * layout_.fieldBytes();
  const bool withLowParts =
    firstField == 0 && lowPartBytes() > 0 && to.getInfo<CL_MEM_SIZE>() >= at + lowPartBytes();
  for (int f = firstField; f < fields; ++f)
    queue_.enqueueCopyBufferRect(stateBuffer(f, parity),
      to,
      layout_.interiorOrigin(),
      { f * layout_.fieldBytes(), 0, 0 },
      layout_.interiorRegion(),
      layout_.rowPitchBytes(),
      0,
      layout_.packedRowBytes(),
      0,
      nullptr,
      f == fields - 1 && !withLowParts ? done : nullptr);
  if (withLowParts)
    queue_.enqueueCopyBuffer(inflowLow_, to, 0, at, lowPartBytes(), nullptr, done);
}

void DeviceState::unpack(const cl::Buffer& from)
{
  for (int f = 0; f < fieldCount(); ++f)
    queue_.enqueueCopyBufferRect(from,
      stateBuffer(f, 0),
      { f * layout_.fieldBytes(), 0, 0 },
      layout_.interiorOrigin(),
      layout_.interiorRegion(),
      layout_.packedRowBytes(),
      0,
      layout_.rowPitchBytes(),
      0);
  const std::size_t at = fieldCount() * layout_.fieldBytes();
  if (lowPartBytes() > 0 && from.getInfo<CL_MEM_SIZE>() >= at + lowPartBytes())
    queue_.enqueueCopyBuffer(from, inflowLow_, at, 0, lowPartBytes());
  else
    clearInflowLow();
  tiles_.reset();
}

template<class Out>
void DeviceState::readConverted(const cl::Buffer& buffer, Out* out) const
{
  if (sizeof(Out) == layout_.realSize)
  {
    readInterior(buffer, out);
    return;
  }
  if (layout_.realSize == sizeof(cl_double))
  {
    std::vector<cl_double> tmp(layout_.cells());
    readInterior(buffer, tmp.data());
    std::copy(tmp.begin(), tmp.end(), out);
  }
  else
  {
    std::vector<cl_float> tmp(layout_.cells());
    readInterior(buffer, tmp.data());
    std::copy(tmp.begin(), tmp.end(), out);
  }
}

template<class Out>
void DeviceState::downloadField(Field field, Out* out) const
{
  if (field == Field::Infiltration && !infiltrated_())
    throw Error("this run has no Green-Ampt infiltration to read");
  if (field == Field::Inflow && !foldInflow_[0]())
    throw Error("this run keeps no water balance: switch it on (Water Balance, swe run "
                "--balance) to read its Inflow field");
  if (isFloodMap(field) && !maps_)
    throw Error("this run keeps no flood maps: switch them on (Flood Maps, swe run --maps) to "
                "read them");
  // (closed cells come only with a Manning field, and their bed reads back as NaN)
  if (field != Field::Bed || (datum_ == 0 && !perCellManning_))
  {
    readConverted(this->field(field), out);
    return;
  }
  std::vector<double> relative(layout_.cells());
  readConverted(this->field(field), relative.data());
  for (std::size_t k = 0; k < relative.size(); ++k)
    out[k] = relative[k] < 0.5 * kClosedBed ? static_cast<Out>(relative[k] + datum_)
                                            : std::numeric_limits<Out>::quiet_NaN();
}

void DeviceState::download(Field field, double* out) const
{
  downloadField(field, out);
}

void DeviceState::download(Field field, float* out) const
{
  downloadField(field, out);
}

std::array<double, 3> DeviceState::cellValues(int i, int j) const
{
  const std::size_t offset = layout_.cellOffsetBytes(i, j);
  std::array<double, 3> values{};
  for (int f = 0; f < 3; ++f)
  {
    const cl::Buffer& buffer = field(static_cast<Field>(f));
    if (layout_.realSize == sizeof(cl_double))
      queue_.enqueueReadBuffer(buffer, CL_TRUE, offset, layout_.realSize, &values[f]);
    else
    {
      cl_float v;
      queue_.enqueueReadBuffer(buffer, CL_TRUE, offset, layout_.realSize, &v);
      values[f] = v;
    }
  }
  return values;
}
} // namespace swe
