#include "SimulationImage.h"

#include "Error.h"
#include "HugePages.h"
#include "StreamingCopy.h"

#include <vtkCellData.h>
#include <vtkDoubleArray.h>
#include <vtkFieldData.h>
#include <vtkFloatArray.h>
#include <vtkImageData.h>
#include <vtkIntArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkSMPTools.h>
#include <vtkSmartPointer.h>
#include <vtkStringArray.h>

#include <algorithm>
#include <cstdint>
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

// Fills the cell arrays from the host state; returns the mass (sum of h dx^2, summed in double on
// the host from the depths there: a device reduction would cost a CPU device as much as the
// download).
template<class ArrayT, class Real>
double fillArrays(const Simulation& simulation,
  const StateView& state,
  vtkCellData* cells,
  FrameArrays& arrays)
{
  const auto& p = simulation.parameters();
  const vtkIdType n = static_cast<vtkIdType>(p.nx) * p.ny;
  auto take = [&](FrameArrays::Slots& slots, const char* name, int components)
  {
    ArrayT* array = reuse<ArrayT>(slots, name, components, n);
    cells->AddArray(array);
    return array;
  };
  // The bed never changes, so a bed array from an earlier frame of the same run is shared instead
  // of downloaded again.
  ArrayT* depth = take(arrays.Depth, "Depth", 1);
  ArrayT* bed = ArrayT::SafeDownCast(arrays.Bed);
  if (bed && bed->GetNumberOfTuples() == n && bed->GetNumberOfComponents() == 1)
    cells->AddArray(bed);
  else
  {
    const vtkSmartPointer<ArrayT> fresh = newArray<ArrayT>("Bed", 1, n);
    simulation.download(Field::Bed, fresh->GetPointer(0));
    cells->AddArray(fresh);
    arrays.Bed = bed = fresh;
  }
  ArrayT* surface = take(arrays.FreeSurface, "FreeSurface", 1);
  Real* depthOut = depth->GetPointer(0);
  const Real* h = reinterpret_cast<const Real*>(state.data);
  const Real* hu = h + n;
  const Real* hv = h + 2 * n;
  const Real* b = bed->GetPointer(0);
  Real* z = surface->GetPointer(0);
  Real* momentum = take(arrays.Momentum, "Momentum", 3)->GetPointer(0);
  ArrayT* velocityArray = take(arrays.Velocity, "Velocity", 3);
  Real* velocity = velocityArray->GetPointer(0);
  // One pass over all cores (a GPU may be stepping ahead meanwhile), in fixed blocks of cells:
  // each value depends on its cell only, and the mass is summed block by block, then over the
  // blocks in order, so no value depends on the threads. (A sum in index order on one thread took
  // twice the rest of the pass on the H200's 16-core host, PERFORMANCE.md.) Debian's VTK defaults
  // to the sequential backend; its std::thread backend is built in.
  constexpr vtkIdType block = 1 << 14;
  std::vector<double> blockMass(static_cast<std::size_t>((n + block - 1) / block));
  vtkSMPTools::LocalScope(vtkSMPTools::Config{ std::string("STDThread") },
    [&]
    {
      vtkSMPTools::For(0,
        static_cast<vtkIdType>(blockMass.size()),
        [&](vtkIdType firstBlock, vtkIdType endBlock)
        {
          // The derived values of a tile of cells are made in cache, then streamed out.
          constexpr vtkIdType tile = 256;
          Real surfaceTile[tile], momentumTile[3 * tile], velocityTile[3 * tile];
          for (vtkIdType i = firstBlock; i < endBlock; ++i)
          {
            const vtkIdType begin = i * block, end = std::min(n, begin + block);
            streamingCopy(depthOut + begin, h + begin, static_cast<std::size_t>(end - begin));
            for (vtkIdType t = begin; t < end; t += tile)
            {
              const vtkIdType m = std::min(tile, end - t);
              for (vtkIdType j = 0; j < m; ++j)
              {
                const vtkIdType k = t + j;
                surfaceTile[j] = h[k] + b[k];
                momentumTile[3 * j] = hu[k];
                momentumTile[3 * j + 1] = hv[k];
                momentumTile[3 * j + 2] = 0;
                const Real inv = h[k] > 0 ? Real(1) / h[k] : Real(0);
                velocityTile[3 * j] = hu[k] * inv;
                velocityTile[3 * j + 1] = hv[k] * inv;
                velocityTile[3 * j + 2] = 0;
              }
              const auto values = static_cast<std::size_t>(m);
              streamingCopy(z + t, surfaceTile, values);
              streamingCopy(momentum + 3 * t, momentumTile, 3 * values);
              streamingCopy(velocity + 3 * t, velocityTile, 3 * values);
            }
            double sum = 0;
            for (vtkIdType k = begin; k < end; ++k)
              sum += h[k];
            blockMass[static_cast<std::size_t>(i)] = sum;
          }
          streamingFence(); // before the pass's end lets the caller read the arrays
        });
    });
  double mass = 0;
  for (double m : blockMass)
    mass += m;
  cells->SetScalars(depth);
  cells->SetVectors(velocityArray);
  return mass * p.dx * p.dx;
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

void fillSimulationImage(const Simulation& simulation,
  const StateView& view,
  vtkImageData* image,
  const double origin[3],
  FrameArrays* cache)
{
  FrameArrays local; // without a cache: new arrays, as if the previous frame were still held
  FrameArrays& arrays = cache ? *cache : local;
  const auto& p = simulation.parameters();
  const std::size_t real = p.precision == Precision::Double ? sizeof(double) : sizeof(float);
  if (view.nx != p.nx || view.ny != p.ny || view.realSize != real || !view.data)
    throw Error("the state to output is not this simulation's (" + std::to_string(view.nx) + " x " +
                std::to_string(view.ny) + " cells of " + std::to_string(view.realSize) +
                " bytes, the simulation has " + std::to_string(p.nx) + " x " +
                std::to_string(p.ny) + " of " + std::to_string(real) + ")");
  image->GetPointData()->Initialize();
  image->GetCellData()->Initialize();
  image->GetFieldData()->Initialize();
  if (origin)
    image->SetOrigin(origin[0], origin[1], origin[2]);
  else
    image->SetOrigin(0, 0, 0);
  image->SetSpacing(p.dx, p.dx, p.dx);
  image->SetExtent(0, p.nx, 0, p.ny, 0, 0);
  const double mass =
    p.precision == Precision::Double
      ? fillArrays<vtkDoubleArray, double>(simulation, view, image->GetCellData(), arrays)
      : fillArrays<vtkFloatArray, float>(simulation, view, image->GetCellData(), arrays);

  vtkFieldData* field = image->GetFieldData();
  addValue<vtkDoubleArray>(field, "SimulationTime", view.time);
  addValue<vtkIntArray>(field, "Steps", static_cast<double>(view.steps));
  addValue<vtkDoubleArray>(field, "Mass", mass);
  vtkNew<vtkStringArray> device;
  device->SetName("Device");
  device->InsertNextValue(simulation.device().name);
  field->AddArray(device);
}

void addFrameTimings(vtkImageData* image, double stepping, double checkpoints, double output)
{
  vtkFieldData* field = image->GetFieldData();
  addValue<vtkDoubleArray>(field, "StepSeconds", stepping);
  addValue<vtkDoubleArray>(field, "CheckpointSeconds", checkpoints);
  addValue<vtkDoubleArray>(field, "OutputSeconds", output);
}
} // namespace swe
