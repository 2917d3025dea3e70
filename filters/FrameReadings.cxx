#include "FrameReadings.h"

#include "FloodClasses.h"
#include "Relief.h"
#include "SimulationTypes.h"

#include <vtkCellData.h>
#include <vtkDoubleArray.h>
#include <vtkFloatArray.h>
#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkSMPTools.h>
#include <vtkUnsignedCharArray.h>

namespace swe
{
namespace
{
template<class ArrayT>
bool makeRelief(vtkDataArray* bed,
  int nx,
  int ny,
  double dx,
  RankExchange* ranks,
  ReliefCache& cache)
{
  ArrayT* typed = ArrayT::SafeDownCast(bed);
  if (!typed)
    return false;
  double slope = typicalSlope(typed->GetPointer(0), nx, ny, dx);
  if (ranks)
    ranks->maxOverRanks(&slope, 1);
  if (slope > 0)
  {
    vtkNew<vtkFloatArray> array;
    array->SetName("ReliefNormals");
    array->SetNumberOfComponents(3);
    array->SetNumberOfTuples(static_cast<vtkIdType>(nx) * ny);
    reliefNormals(
      typed->GetPointer(0), nx, ny, dx, reliefExaggeration(slope), array->GetPointer(0));
    cache.normals = array;
  }
  return true;
}

template<class ArrayT>
bool addClasses(vtkCellData* cells, double arrivalDepth)
{
  ArrayT* depth = ArrayT::SafeDownCast(cells->GetArray(fieldName(Field::MaxDepth)));
  if (!depth)
    return false;
  ArrayT* hazard = ArrayT::SafeDownCast(cells->GetArray(fieldName(Field::MaxHazard)));
  const vtkIdType n = depth->GetNumberOfTuples();
  vtkNew<vtkUnsignedCharArray> extent;
  extent->SetName("FloodExtent");
  extent->SetNumberOfTuples(n);
  vtkSmartPointer<vtkUnsignedCharArray> classes;
  if (hazard)
  {
    classes = vtkSmartPointer<vtkUnsignedCharArray>::New();
    classes->SetName("HazardClass");
    classes->SetNumberOfTuples(n);
  }
  // (over all cores, as the frame's other arrays are filled)
  vtkSMPTools::For(0,
    n,
    vtkIdType(1) << 16,
    [&](vtkIdType begin, vtkIdType end)
    {
      floodClasses(depth->GetPointer(begin),
        (hazard ? hazard : depth)->GetPointer(begin),
        end - begin,
        arrivalDepth,
        extent->GetPointer(begin),
        classes ? classes->GetPointer(begin) : nullptr);
    });
  cells->AddArray(extent);
  if (classes)
    cells->AddArray(classes);
  return true;
}
} // namespace

void addRelief(vtkImageData* output,
  vtkDataArray* bed,
  const ReliefGrid& grid,
  RankExchange* ranks,
  ReliefCache& cache)
{
  if (!cache.made && bed)
    cache.made = makeRelief<vtkFloatArray>(bed, grid.nx, grid.ny, grid.dx, ranks, cache) ||
                 makeRelief<vtkDoubleArray>(bed, grid.nx, grid.ny, grid.dx, ranks, cache);
  if (!cache.normals)
    return;
  vtkCellData* cells = output->GetCellData();
  vtkDataArray* depth = cells->GetArray("Depth");
  if (!depth)
  {
    cells->SetNormals(cache.normals);
    return;
  }
  vtkNew<vtkFloatArray> normals;
  normals->SetName(cache.normals->GetName());
  normals->SetNumberOfComponents(3);
  normals->SetNumberOfTuples(cache.normals->GetNumberOfTuples());
  const float* bedNormals = vtkFloatArray::SafeDownCast(cache.normals)->GetPointer(0);
  // (over all cores, as the frame's other arrays are filled)
  vtkSMPTools::For(0,
    depth->GetNumberOfTuples(),
    vtkIdType(1) << 16,
    [&](vtkIdType begin, vtkIdType end)
    {
      const auto count = static_cast<std::size_t>(end - begin);
      float* out = normals->GetPointer(3 * begin);
      if (auto* single = vtkFloatArray::SafeDownCast(depth))
        reliefUnderWater(
          bedNormals + 3 * begin, single->GetPointer(begin), count, grid.wetDepth, out);
      else if (auto* dual = vtkDoubleArray::SafeDownCast(depth))
        reliefUnderWater(
          bedNormals + 3 * begin, dual->GetPointer(begin), count, grid.wetDepth, out);
    });
  cells->SetNormals(normals);
}

void addFloodClasses(vtkImageData* output, double arrivalDepth)
{
  vtkCellData* cells = output->GetCellData();
  if (!addClasses<vtkFloatArray>(cells, arrivalDepth))
    addClasses<vtkDoubleArray>(cells, arrivalDepth);
}
} // namespace swe
