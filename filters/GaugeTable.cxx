#include "GaugeTable.h"

#include <vtkDoubleArray.h>
#include <vtkNew.h>
#include <vtkTable.h>

#include <cmath>
#include <string>

namespace swe
{
void fillGaugeTable(const GaugeRecord& record, double upTo, vtkTable* table)
{
  table->Initialize();
  std::size_t rows = 0;
  while (rows < record.time.size() && record.time[rows] <= upTo)
    ++rows;
  const auto column = [&](const std::string& name)
  {
    vtkNew<vtkDoubleArray> array;
    array->SetName(name.c_str());
    array->SetNumberOfValues(static_cast<vtkIdType>(rows));
    table->AddColumn(array);
    return array.Get();
  };
  vtkDoubleArray* time = column("Time");
  for (std::size_t s = 0; s < rows; ++s)
    time->SetValue(static_cast<vtkIdType>(s), record.time[s]);
  for (int g = 0; g < record.gauges; ++g)
  {
    const std::string name = "G" + std::to_string(g + 1) + " ";
    vtkDoubleArray* depth = column(name + "Depth");
    vtkDoubleArray* surface = column(name + "Surface");
    vtkDoubleArray* speed = column(name + "Speed");
    for (std::size_t s = 0; s < rows; ++s)
    {
      const auto k = static_cast<vtkIdType>(s);
      depth->SetValue(k, record.value(s, g, 0));
      surface->SetValue(k, record.value(s, g, 1));
      speed->SetValue(k, std::hypot(record.value(s, g, 2), record.value(s, g, 3)));
    }
  }
}
} // namespace swe
