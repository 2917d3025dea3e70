#include "GaugeMarkers.h"

#include <vtkCellArray.h>
#include <vtkDoubleArray.h>
#include <vtkIntArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>

#include <cmath>
#include <limits>

namespace swe
{
void fillGaugeMarkers(const std::vector<std::array<double, 2>>& sites,
  const double origin[3],
  const GaugeRecord& record,
  double upTo,
  vtkPolyData* points)
{
  points->Initialize();
  const auto count = static_cast<vtkIdType>(sites.size());
  // (the latest sample at or before upTo; none before the first)
  std::size_t samples = 0;
  while (samples < record.time.size() && record.time[samples] <= upTo)
    ++samples;
  const bool read = samples > 0 && record.gauges == static_cast<int>(sites.size());
  vtkNew<vtkPoints> at;
  at->SetDataTypeToDouble();
  vtkNew<vtkCellArray> vertices;
  vtkNew<vtkIntArray> numbers;
  numbers->SetName("Gauge");
  const auto reading = [&](const char* name)
  {
    vtkNew<vtkDoubleArray> values;
    values->SetName(name);
    values->SetNumberOfValues(count);
    points->GetPointData()->AddArray(values);
    return values.Get();
  };
  vtkDoubleArray* depth = reading("Depth");
  vtkDoubleArray* surface = reading("Surface");
  vtkDoubleArray* speed = reading("Speed");
  const double none = std::numeric_limits<double>::quiet_NaN();
  for (vtkIdType g = 0; g < count; ++g)
  {
    const auto& xy = sites[static_cast<std::size_t>(g)];
    const vtkIdType id = at->InsertNextPoint(origin[0] + xy[0], origin[1] + xy[1], origin[2]);
    vertices->InsertNextCell(1, &id);
    numbers->InsertNextValue(static_cast<int>(g) + 1);
    const auto value = [&](int which)
    { return read ? record.value(samples - 1, static_cast<int>(g), which) : none; };
    depth->SetValue(g, value(0));
    surface->SetValue(g, value(1));
    speed->SetValue(g, read ? std::hypot(value(2), value(3)) : none);
  }
  points->SetPoints(at);
  points->SetVerts(vertices);
  points->GetPointData()->AddArray(numbers);
}
} // namespace swe
