#include "SimulationImage.h"

#include <vtkCellData.h>
#include <vtkDoubleArray.h>
#include <vtkFieldData.h>
#include <vtkFloatArray.h>
#include <vtkImageData.h>
#include <vtkIntArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkStringArray.h>

#include <memory>

namespace swe
{
namespace
{
// Fills the cell arrays; returns the mass (sum of h dx^2, summed in double on the host from the
// depths just downloaded: a device reduction would cost a CPU device as much as the download).
template<class ArrayT, class Real>
double fillArrays(const Simulation& simulation, vtkCellData* cells, vtkDataArray* bedCache)
{
  const auto& p = simulation.parameters();
  const vtkIdType n = static_cast<vtkIdType>(p.nx) * p.ny;
  auto makeArray = [&](const char* name, int components)
  {
    vtkNew<ArrayT> array;
    array->SetName(name);
    array->SetNumberOfComponents(components);
    array->SetNumberOfTuples(n);
    cells->AddArray(array);
    return array.GetPointer();
  };
  // Scalars download straight into the arrays' memory; the bed never changes, so a bed array
  // from an earlier frame of the same run is shared instead of downloaded again.
  ArrayT* depth = makeArray("Depth", 1);
  simulation.download(Field::Depth, depth->GetPointer(0));
  ArrayT* bed = ArrayT::SafeDownCast(bedCache);
  if (bed && bed->GetNumberOfTuples() == n && bed->GetNumberOfComponents() == 1)
    cells->AddArray(bed);
  else
  {
    bed = makeArray("Bed", 1);
    simulation.download(Field::Bed, bed->GetPointer(0));
  }
  ArrayT* surface = makeArray("FreeSurface", 1);
  const Real* h = depth->GetPointer(0);
  const Real* b = bed->GetPointer(0);
  Real* z = surface->GetPointer(0);
  double sum = 0;
  for (vtkIdType k = 0; k < n; ++k)
  {
    z[k] = h[k] + b[k];
    sum += h[k];
  }
  // Vectors are interleaved (x, y, 0): one staging copy of each momentum (left uninitialised:
  // the download overwrites it).
  std::unique_ptr<Real[]> hu(new Real[n]), hv(new Real[n]);
  simulation.download(Field::MomentumX, hu.get());
  simulation.download(Field::MomentumY, hv.get());
  Real* momentum = makeArray("Momentum", 3)->GetPointer(0);
  Real* velocity = makeArray("Velocity", 3)->GetPointer(0);
  for (vtkIdType k = 0; k < n; ++k)
  {
    momentum[3 * k] = hu[k];
    momentum[3 * k + 1] = hv[k];
    momentum[3 * k + 2] = 0;
    const Real inv = h[k] > 0 ? Real(1) / h[k] : Real(0);
    velocity[3 * k] = hu[k] * inv;
    velocity[3 * k + 1] = hv[k] * inv;
    velocity[3 * k + 2] = 0;
  }
  cells->SetScalars(depth);
  cells->SetVectors(cells->GetArray("Velocity"));
  return sum * p.dx * p.dx;
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
  vtkImageData* image,
  const double origin[3],
  vtkDataArray* bedCache)
{
  const auto& p = simulation.parameters();
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
      ? fillArrays<vtkDoubleArray, double>(simulation, image->GetCellData(), bedCache)
      : fillArrays<vtkFloatArray, float>(simulation, image->GetCellData(), bedCache);

  vtkFieldData* field = image->GetFieldData();
  addValue<vtkDoubleArray>(field, "SimulationTime", simulation.time());
  addValue<vtkIntArray>(field, "Steps", static_cast<double>(simulation.steps()));
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
