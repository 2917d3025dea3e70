#include "EnsembleImage.h"

#include "Relief.h"

#include <vtkCellData.h>
#include <vtkDoubleArray.h>
#include <vtkFieldData.h>
#include <vtkFloatArray.h>
#include <vtkImageData.h>
#include <vtkIntArray.h>
#include <vtkNew.h>

#include <algorithm>

namespace swe
{
void fillEnsembleImage(vtkImageData* image,
  const EnsembleStatistics& statistics,
  const std::array<double, 3>& origin,
  double dx,
  const std::vector<double>& bed)
{
  image->Initialize();
  image->SetOrigin(origin.data());
  image->SetSpacing(dx, dx, dx);
  image->SetExtent(0, statistics.nx, 0, statistics.ny, 0, 0);
  const vtkIdType cells = static_cast<vtkIdType>(statistics.nx) * statistics.ny;
  vtkCellData* data = image->GetCellData();
  for (int m = 0; m < kEnsembleMapCount; ++m)
  {
    vtkNew<vtkFloatArray> array;
    array->SetName(ensembleMapName(EnsembleMap(m)));
    array->SetNumberOfValues(cells);
    std::copy(statistics.maps[m].begin(), statistics.maps[m].end(), array->GetPointer(0));
    data->AddArray(array);
  }
  data->SetActiveScalars(ensembleMapName(EnsembleMap::ProbabilityFlooded));
  if (!bed.empty())
  {
    vtkNew<vtkDoubleArray> array;
    array->SetName("Bed");
    array->SetNumberOfValues(cells);
    std::copy(bed.begin(), bed.end(), array->GetPointer(0));
    data->AddArray(array);
    // (the terrain's shape, so that a lit view shades the probability as a hill-shade does)
    const double slope = typicalSlope(bed.data(), statistics.nx, statistics.ny, dx);
    if (slope > 0)
    {
      vtkNew<vtkFloatArray> normals;
      normals->SetName("ReliefNormals");
      normals->SetNumberOfComponents(3);
      normals->SetNumberOfTuples(cells);
      reliefNormals(bed.data(),
        statistics.nx,
        statistics.ny,
        dx,
        reliefExaggeration(slope),
        normals->GetPointer(0));
      data->SetNormals(normals);
    }
  }
  vtkFieldData* field = image->GetFieldData();
  vtkNew<vtkDoubleArray> time;
  time->SetName("SimulationTime");
  time->InsertNextValue(statistics.time);
  field->AddArray(time);
  vtkNew<vtkIntArray> members;
  members->SetName("Members");
  members->InsertNextValue(statistics.members);
  field->AddArray(members);
}
} // namespace swe
