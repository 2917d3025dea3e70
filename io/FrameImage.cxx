#include "FrameImage.h"

#include "Error.h"
#include "HugePages.h"
#include "FrameRow.h"
#include "WaterBalance.h"

#include <vtkCellData.h>
#include <vtkDataSetAttributes.h>
#include <vtkDoubleArray.h>
#include <vtkFieldData.h>
#include <vtkFloatArray.h>
#include <vtkImageData.h>
#include <vtkInformation.h>
#include <vtkInformationInformationVectorKey.h>
#include <vtkInformationVector.h>
#include <vtkIntArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkSMPTools.h>
#include <vtkSmartPointer.h>
#include <vtkStringArray.h>
#include <vtkTypeInt64Array.h>
#include <vtkUnsignedCharArray.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <atomic>
#include <cmath>
#include <initializer_list>
#include <iterator>
#include <exception>
#include <mutex>
#include <numeric>
#include <cstdint>
#include <utility>
#include <vector>
#include <string>

namespace swe
{
namespace
{

// A new array of ArrayT named name, components x tuples, on huge pages where the system has them.
template<class ArrayT>
vtkSmartPointer<ArrayT> newArray(const char* name, int components, vtkIdType n)
{
  vtkNew<ArrayT> array;
  array->SetName(name);
  array->SetNumberOfComponents(components);
  array->SetNumberOfTuples(n);
  adviseHugePages(array->GetPointer(0), sizeof(*array->GetPointer(0)) * components * n);
  return array.GetPointer();
}

// An array of ArrayT named name, components x tuples, moved to slots[0]: the oldest cached one
// that nothing but the cache holds (so no consumer can see it change), else a new one in place of
// the oldest.
template<class ArrayT, std::size_t N>
ArrayT* reuse(std::array<vtkSmartPointer<vtkDataArray>, N>& slots,
  const char* name,
  int components,
  vtkIdType n)
{
  for (std::size_t i = N; i-- > 0;)
  {
    ArrayT* array = ArrayT::SafeDownCast(slots[i]);
    if (array && array->GetReferenceCount() == 1 && array->GetNumberOfComponents() == components &&
        array->GetNumberOfTuples() == n)
    {
      std::rotate(slots.begin(), slots.begin() + i, slots.begin() + i + 1);
      // New values: drop what VTK derived from the old ones (value lookup; ranges go by MTime).
      array->DataChanged();
      array->Modified();
      return array;
    }
  }
  const vtkSmartPointer<ArrayT> fresh = newArray<ArrayT>(name, components, n);
  slots[N - 1] = fresh;
  std::rotate(slots.begin(), slots.begin() + N - 1, slots.end());
  return fresh;
}

// One component's (or a vector norm's) range, as VTK's GetRange (known) and GetFiniteRange
// (finite) would give it.
struct Range
{
  double min, max;
  bool known, finite;
};

Range rangeOf(const FrameRanges& ranges, FrameRanges::Quantity q)
{
  return { ranges.min[q], ranges.max[q], ranges.known(q), ranges.finite(q) };
}

// A vector's L2 norm range from its squared norms' bounds.
Range normOf(const FrameRanges& ranges, FrameRanges::Quantity q)
{
  return { std::sqrt(ranges.min[q]), std::sqrt(ranges.max[q]), ranges.known(q), ranges.finite(q) };
}

// Puts array's ranges where VTK's GetRange and GetFiniteRange look first (newer than the array's
// last Modified, which drops them), so that ParaView's data information and colour maps read them
// instead of passing over the array again; those not all known are left for VTK to compute.
// components: each component's; norm: the L2 norm's, for vectors.
void cacheRanges(vtkDataArray* array,
  std::initializer_list<Range> components,
  const Range* norm = nullptr)
{
  vtkInformation* info = array->GetInformation();
  auto put = [&](bool Range::*valid,
               vtkInformationInformationVectorKey* perComponentKey,
               vtkInformationDoubleVectorKey* normKey)
  {
    for (const Range& r : components)
      if (!(r.*valid))
        return;
    if (norm && !(norm->*valid))
      return;
    vtkNew<vtkInformationVector> perComponent;
    perComponent->SetNumberOfInformationObjects(static_cast<int>(components.size()));
    int c = 0;
    for (const Range& r : components)
    {
      const double bounds[2] = { r.min, r.max };
      perComponent->GetInformationObject(c++)->Set(vtkDataArray::COMPONENT_RANGE(), bounds, 2);
    }
    info->Set(perComponentKey, perComponent);
    if (norm)
    {
      const double bounds[2] = { norm->min, norm->max };
      info->Set(normKey, bounds, 2);
    }
  };
  put(&Range::known, vtkAbstractArray::PER_COMPONENT(), vtkDataArray::L2_NORM_RANGE());
  put(
    &Range::finite, vtkAbstractArray::PER_FINITE_COMPONENT(), vtkDataArray::L2_NORM_FINITE_RANGE());
}

// Waits for a block's rows while the state reaches the host. An error (a lost device) must not
// leave a worker thread: the first is kept, the rest of the pass skipped (false), and rethrow()
// throws it once the pass is over.
class RowsArrival
{
public:
  explicit RowsArrival(const RowsWait& wait)
    : wait_(wait)
  {
  }
  bool operator()(vtkIdType endRow)
  {
    if (failing_)
      return false;
    try
    {
      if (wait_)
        wait_(static_cast<int>(endRow));
      return true;
    }
    catch (...)
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      if (!failed_)
        failed_ = std::current_exception();
      failing_ = true;
      return false;
    }
  }
  void rethrow() const
  {
    if (failed_)
      std::rethrow_exception(failed_);
  }

private:
  const RowsWait& wait_;
  std::mutex mutex_;
  std::exception_ptr failed_;
  std::atomic<bool> failing_{ false };
};

// Caches the range of a one-component array made once (the bed).
template<class Real>
void cacheRange(vtkDataArray* array, const Real* values, vtkIdType n)
{
  FrameRanges ranges;
  for (vtkIdType k = 0; k < n; ++k)
    ranges.take(FrameRanges::Depth, values[k]); // (any quantity will do)
  cacheRanges(array, { rangeOf(ranges, FrameRanges::Depth) });
}

// vtkGhostType marking the cells of a NaN bed hidden, or null where there are none.
template<class Real>
vtkSmartPointer<vtkDataArray> hiddenCells(const Real* bed, vtkIdType n)
{
  if (std::none_of(bed, bed + n, [](Real b) { return b != b; }))
    return nullptr;
  vtkNew<vtkUnsignedCharArray> ghosts;
  ghosts->SetName(vtkDataSetAttributes::GhostArrayName());
  ghosts->SetNumberOfTuples(n);
  for (vtkIdType k = 0; k < n; ++k)
    ghosts->SetValue(k, bed[k] != bed[k] ? vtkDataSetAttributes::HIDDENCELL : 0);
  return ghosts.Get();
}

// The frame's arrays of ArrayT (the simulation's precision) that selection holds, taken from the
// cache or new, added to cells (null for those left out, whose cached arrays are let go); the bed
// from the cache or downloaded (the free surface needs it, held or not).
template<class ArrayT>
void takeArrays(const Simulation& simulation,
  vtkCellData* cells,
  FrameArrays& arrays,
  const FrameArraySelection& selection,
  vtkDataArray* (&out)[kFrameArrayCount])
{
  const auto& p = simulation.parameters();
  const vtkIdType n = static_cast<vtkIdType>(p.nx) * p.ny;
  auto take = [&](FrameArrays::Slots& slots, FrameArray which, int components) -> ArrayT*
  {
    if (!selection(which))
    {
      slots = {};
      return nullptr;
    }
    ArrayT* array = reuse<ArrayT>(slots, kFrameArrayNames[static_cast<int>(which)], components, n);
    cells->AddArray(array);
    return array;
  };
  ArrayT* depth = take(arrays.Depth, FrameArray::Depth, 1);
  // The bed never changes, so a bed array from an earlier frame of the same run is shared instead
  // of downloaded again.
  ArrayT* bed = ArrayT::SafeDownCast(arrays.Bed);
  if (!bed || bed->GetNumberOfTuples() != n || bed->GetNumberOfComponents() != 1)
  {
    const vtkSmartPointer<ArrayT> fresh = newArray<ArrayT>(fieldName(Field::Bed), 1, n);
    simulation.download(Field::Bed, fresh->GetPointer(0));
    cacheRange(fresh, fresh->GetPointer(0), n);
    arrays.Bed = bed = fresh;
    arrays.Hidden = hiddenCells(fresh->GetPointer(0), n);
  }
  if (selection(FrameArray::Bed))
    cells->AddArray(bed);
  if (arrays.Hidden)
    cells->AddArray(arrays.Hidden);
  ArrayT* surface = take(arrays.FreeSurface, FrameArray::FreeSurface, 1);
  ArrayT* momentum = take(arrays.Momentum, FrameArray::Momentum, 3);
  ArrayT* velocity = take(arrays.Velocity, FrameArray::Velocity, 3);
  if (depth)
    cells->SetScalars(depth);
  if (velocity)
    cells->SetVectors(velocity);
  out[0] = depth;
  out[1] = surface;
  out[2] = bed;
  out[3] = momentum;
  out[4] = velocity;
  // The flood maps and the infiltration, copied from the state as they are (a run without them
  // has none to give).
  const std::vector<Field> fields = stateFields(p);
  for (int k = 0; k < kKeptArrayCount; ++k)
  {
    const bool kept = std::find(fields.begin(), fields.end(), keptField(k)) != fields.end();
    out[kFirstKeptArray + k] = kept ? take(arrays.Kept[static_cast<std::size_t>(k)],
                                        static_cast<FrameArray>(kFirstKeptArray + k),
                                        1)
                                    : nullptr;
  }
}

// The values of array, or null for an array left out.
template<class Real>
Real* values(vtkDataArray* array)
{
  return array ? static_cast<Real*>(array->GetVoidPointer(0)) : nullptr;
}

// The gauges' samples up to step upTo (GaugeTimes, GaugeSteps, GaugeSamples: a tuple a sample,
// each gauge's kGaugeValues), so that a run continued from the frame keeps them (FrameSnapshot).
// Arrays of many tuples, so they stay out of the Diagnostics table.
void addGaugeSamples(vtkFieldData* field, const GaugeRecord& record, std::int64_t upTo)
{
  const auto n = static_cast<vtkIdType>(
    std::upper_bound(record.step.begin(), record.step.end(), upTo) - record.step.begin());
  const int width = record.gauges * GaugeRecord::kGaugeValues;
  vtkNew<vtkDoubleArray> times, samples;
  vtkNew<vtkTypeInt64Array> steps;
  times->SetName("GaugeTimes");
  steps->SetName("GaugeSteps");
  samples->SetName("GaugeSamples");
  samples->SetNumberOfComponents(width);
  times->SetNumberOfTuples(n);
  steps->SetNumberOfTuples(n);
  samples->SetNumberOfTuples(n);
  std::copy_n(record.time.begin(), n, times->GetPointer(0));
  std::copy_n(record.step.begin(), n, steps->GetPointer(0));
  std::copy_n(record.values.begin(), n * width, samples->GetPointer(0));
  field->AddArray(times);
  field->AddArray(steps);
  field->AddArray(samples);
}

template<class ArrayT>
void addValue(vtkFieldData* field, const char* name, double value)
{
  vtkNew<ArrayT> array;
  array->SetName(name);
  array->InsertNextValue(value);
  field->AddArray(array);
}
} // namespace

FrameImage::FrameImage(const Simulation& simulation,
  vtkImageData* image,
  const double origin[3],
  FrameArrays* cache,
  const FrameArraySelection& selection)
  : params_(simulation.parameters())
  , deviceName_(simulation.device().name)
  , settings_(simulation.settings())
  , gauges_(&simulation.gauges())
  , image_(image)
  , rowMass_(static_cast<std::size_t>(params_.ny))
  , rowFlooded_(static_cast<std::size_t>(params_.ny))
{
  FrameArrays local; // without a cache: new arrays, as if the previous frame were still held
  FrameArrays& arrays = cache ? *cache : local;
  image->GetPointData()->Initialize();
  image->GetCellData()->Initialize();
  image->GetFieldData()->Initialize();
  if (origin)
    image->SetOrigin(origin[0], origin[1], origin[2]);
  else
    image->SetOrigin(0, 0, 0);
  image->SetSpacing(params_.dx, params_.dx, params_.dx);
  image->SetExtent(0, params_.nx, 0, params_.ny, 0, 0);
  vtkDataArray* taken[kFrameArrayCount];
  if (params_.precision == Precision::Double)
    takeArrays<vtkDoubleArray>(simulation, image->GetCellData(), arrays, selection, taken);
  else
    takeArrays<vtkFloatArray>(simulation, image->GetCellData(), arrays, selection, taken);
  depth_ = taken[0];
  surface_ = taken[1];
  bed_ = taken[2];
  momentum_ = taken[3];
  velocity_ = taken[4];
  std::copy(std::begin(taken) + kFirstKeptArray, std::end(taken), kept_.begin());
}

void FrameImage::fill(const StateView& state, const RowsWait& waitForRows)
{
  const std::size_t real = params_.precision == Precision::Double ? sizeof(double) : sizeof(float);
  if (state.nx != params_.nx || state.ny != params_.ny || state.realSize != real || !state.data)
    throw Error("the state to output is not this simulation's (" + std::to_string(state.nx) +
                " x " + std::to_string(state.ny) + " cells of " + std::to_string(state.realSize) +
                " bytes, the simulation has " + std::to_string(params_.nx) + " x " +
                std::to_string(params_.ny) + " of " + std::to_string(real) + ")");
  if (real == sizeof(double))
    fillArrays<double>(state, waitForRows);
  else
    fillArrays<float>(state, waitForRows);
  // The device's bounds where it gives them (those it could not know, such as any after a
  // denormal in fp32, are left to VTK to compute when asked).
  const std::optional<FrameRanges> fromDevice = state.ranges ? state.ranges() : std::nullopt;
  const FrameRanges& ranges = state.ranges ? (fromDevice ? *fromDevice : FrameRanges()) : ranges_;
  cacheArrayRanges(ranges);
  copyKeptFields(state);
  addFieldData(state, ranges);
}

void FrameImage::cacheArrayRanges(const FrameRanges& ranges)
{
  using Q = FrameRanges;
  const Range zero{ 0, 0, true, true }, // a vector's z
    momentumNorm = normOf(ranges, Q::MomentumNorm), velocityNorm = normOf(ranges, Q::VelocityNorm);
  if (depth_)
    cacheRanges(depth_, { rangeOf(ranges, Q::Depth) });
  if (surface_)
    cacheRanges(surface_, { rangeOf(ranges, Q::Surface) });
  if (momentum_)
    cacheRanges(momentum_,
      { rangeOf(ranges, Q::MomentumX), rangeOf(ranges, Q::MomentumY), zero },
      &momentumNorm);
  if (velocity_)
    cacheRanges(velocity_,
      { rangeOf(ranges, Q::VelocityX), rangeOf(ranges, Q::VelocityY), zero },
      &velocityNorm);
}

void FrameImage::copyKeptFields(const StateView& state)
{
  const std::vector<Field> fields = stateFields(params_);
  for (std::size_t k = 0; k < kept_.size(); ++k)
    if (kept_[k])
    {
      const auto f = std::find(fields.begin(), fields.end(), keptField(static_cast<int>(k)));
      if (state.fields != static_cast<int>(fields.size()) || f == fields.end())
        throw Error("the state to output lacks the fields of its run's maps or infiltration");
      std::memcpy(kept_[k]->GetVoidPointer(0),
        state.field(static_cast<int>(f - fields.begin())),
        state.fieldBytes());
      kept_[k]->Modified(); // (its range is computed again when asked)
    }
}

void FrameImage::addFieldData(const StateView& state, const FrameRanges& ranges)
{
  using Q = FrameRanges;
  double mass = 0;
  for (double m : rowMass_)
    mass += m;
  vtkFieldData* field = image_->GetFieldData();
  addValue<vtkDoubleArray>(field, "SimulationTime", state.time);
  addValue<vtkIntArray>(field, "Steps", static_cast<double>(state.steps));
  // (what a run restarted from this frame compares its own with: FrameSnapshot)
  if (!settings_.empty())
  {
    vtkNew<vtkStringArray> settings;
    settings->SetName("RunSettings");
    settings->InsertNextValue(settings_);
    field->AddArray(settings);
  }
  // (what a run continued from this frame chooses its next dt from: FrameSnapshot; in a split
  // run the largest over the ranks, FilterRun::placePiece, as a rank's own would give a run on
  // one rank too long a step)
  if (state.waveSpeed >= 0)
    addValue<vtkDoubleArray>(field, "StepWaveSpeed", state.waveSpeed);
  // (summed in double on the host from the depths there: a device reduction would cost a CPU
  // device as much as the download)
  addValue<vtkDoubleArray>(field, "Mass", mass * params_.dx * params_.dx);
  // The area at or above the arrival depth now, and the deepest water (from the depth's bounds,
  // known or VTK's), for the Diagnostics table.
  addValue<vtkDoubleArray>(field,
    "FloodedArea",
    static_cast<double>(std::accumulate(rowFlooded_.begin(), rowFlooded_.end(), std::int64_t(0))) *
      params_.dx * params_.dx);
  if (ranges.known(Q::Depth))
    addValue<vtkDoubleArray>(field, "LargestDepth", ranges.max[Q::Depth]);
  else if (depth_)
    addValue<vtkDoubleArray>(field, "LargestDepth", depth_->GetRange(0)[1]);
  if (params_.waterBalance)
  {
    const WaterBalance b = waterBalanceOf(state, params_, balanceInitial_, balanceRainedCells_);
    for (const auto& [name, value] : { std::pair{ "StoredVolume", b.stored },
           { "InitialVolume", b.initial },
           { "RainVolume", b.rain },
           { "InflowVolume", b.inflow },
           { "OutflowVolume", b.outflow },
           { "InfiltratedVolume", b.infiltration },
           { "BalanceError", b.error() },
           { "RelativeBalanceError", b.relativeError() } })
      addValue<vtkDoubleArray>(field, name, value);
  }
  if (gauges_->gauges > 0)
    addGaugeSamples(field, *gauges_, state.steps);
  // (text, so that it stays out of the Diagnostics table's columns of numbers)
  const std::string dryLand = skipsDryLand(params_) ? "skipped"
                              : !params_.skipDry    ? "updated (Skip Dry Land off)"
                              : params_.scheme == Scheme::LaxFriedrichs
                                ? "updated (Lax-Friedrichs)"
                                : "updated (rain wets every cell)";
  for (const auto& [name, text] : { std::pair{ "Device", deviceName_ }, { "DryLand", dryLand } })
  {
    vtkNew<vtkStringArray> array;
    array->SetName(name);
    array->InsertNextValue(text);
    field->AddArray(array);
  }
}

template<class Real>
void FrameImage::fillArrays(const StateView& state, const RowsWait& waitForRows)
{
  const vtkIdType nx = params_.nx, n = nx * params_.ny;
  const Real* h = reinterpret_cast<const Real*>(state.data);
  const Real* hu = h + n;
  const Real* hv = h + 2 * n;
  const Real* b = values<Real>(bed_);
  Real* depth = values<Real>(depth_);
  Real* z = values<Real>(surface_);
  Real* momentum = values<Real>(momentum_);
  Real* velocity = values<Real>(velocity_);
  const bool hostRanges = !state.ranges; // else the device gives them
  std::mutex mutex;                      // guards ranges_
  RowsArrival arrived(waitForRows);
  // One pass over all cores (a GPU may be stepping ahead meanwhile), in blocks of rows taken in
  // row order, each once its rows have arrived: each value depends on its cell only, and the mass
  // is summed row by row, then over the rows in order, so no value depends on the threads. (A sum
  // in index order on one thread of its own is slower than the rest of the pass on a many-core
  // host; a pass per part of the download costs more than one: Debian's VTK starts its threads
  // anew for each pass. See PERFORMANCE.md, 'Decisions that stand'.) Each row goes through
  // fillFrameRow (solver/products/FrameRow: SSE2, streaming stores). Debian's VTK defaults to the
  // sequential backend; its std::thread backend is built in.
  vtkSMPTools::LocalScope(vtkSMPTools::Config{ std::string("STDThread") },
    [&]
    {
      vtkSMPTools::For(0,
        params_.ny,
        [&](vtkIdType firstRow, vtkIdType endRow)
        {
          if (!arrived(endRow))
            return;
          FrameRanges blockRanges;
          FrameRanges* gather = hostRanges ? &blockRanges : nullptr;
          for (vtkIdType row = firstRow; row < endRow; ++row)
          {
            const vtkIdType k = row * nx;
            rowMass_[static_cast<std::size_t>(row)] = fillFrameRow(h + k,
              hu + k,
              hv + k,
              b + k,
              static_cast<std::size_t>(nx),
              offsetOrNull(depth, k),
              offsetOrNull(z, k),
              offsetOrNull(momentum, 3 * k),
              offsetOrNull(velocity, 3 * k),
              gather);
            // (the row is in the cache still: counted on the way, for FloodedArea)
            const Real arrival = static_cast<Real>(params_.arrivalDepth);
            rowFlooded_[static_cast<std::size_t>(row)] =
              std::count_if(h + k, h + k + nx, [arrival](Real v) { return v >= arrival; });
          }
          streamingFence(); // before the pass's end lets another thread read the arrays
          if (gather)
          {
            // (min and max do not round: the merged bounds do not depend on the threads)
            const std::lock_guard<std::mutex> lock(mutex);
            ranges_.merge(blockRanges);
          }
        });
    });
  arrived.rethrow();
}

FrameArraySelection frameArraySelection(const std::vector<std::string>& names)
{
  FrameArraySelection selection;
  if (names.empty())
    return selection;
  selection.holds.fill(false);
  for (const std::string& name : names)
  {
    const auto end = std::end(kFrameArrayNames);
    const auto found = std::find(std::begin(kFrameArrayNames), end, name);
    if (found == end)
    {
      std::string known;
      for (const char* k : kFrameArrayNames)
        known += std::string(known.empty() ? "" : ", ") + k;
      throw Error("no output array \"" + name + "\" (the arrays are " + known + ")");
    }
    selection.holds[static_cast<std::size_t>(found - std::begin(kFrameArrayNames))] = true;
  }
  return selection;
}

void addDeviceMemory(vtkImageData* image, double bytes)
{
  addValue<vtkDoubleArray>(image->GetFieldData(), "DeviceMemory", bytes);
}

void addFrameTimings(vtkImageData* image, const FrameTimings& timings)
{
  vtkFieldData* field = image->GetFieldData();
  addValue<vtkDoubleArray>(field, "StepSeconds", timings.stepping);
  addValue<vtkDoubleArray>(field, "StepsTaken", timings.steps);
  addValue<vtkDoubleArray>(field, "CheckpointSeconds", timings.checkpoints);
  addValue<vtkDoubleArray>(field, "OutputSeconds", timings.output);
}
} // namespace swe
