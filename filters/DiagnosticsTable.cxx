#include "DiagnosticsTable.h"

#include <vtkDataArray.h>
#include <vtkDoubleArray.h>
#include <vtkFieldData.h>
#include <vtkNew.h>
#include <vtkTable.h>

#include <algorithm>
#include <limits>
#include <string>

namespace swe
{
void DiagnosticsHistory::record(vtkFieldData* field)
{
  auto* time = vtkDataArray::SafeDownCast(field->GetAbstractArray("SimulationTime"));
  if (!time || time->GetNumberOfTuples() != 1)
    return;
  std::vector<std::pair<std::string, double>> row;
  for (int k = 0; k < field->GetNumberOfArrays(); ++k)
  {
    // (the gauges' record so far is a list, one sample long at t = 0: not a diagnostic)
    vtkDataArray* array = field->GetArray(k);
    if (array && array->GetName() && array != time && array->GetNumberOfTuples() == 1 &&
        array->GetNumberOfComponents() == 1 && std::string(array->GetName()).rfind("Gauge", 0) != 0)
      row.emplace_back(array->GetName(), array->GetComponent(0, 0));
  }
  rows_[time->GetComponent(0, 0)] = std::move(row);
}

void DiagnosticsHistory::fill(double upTo, vtkTable* table) const
{
  table->Initialize();
  const auto end = rows_.upper_bound(upTo);
  // The columns: every name the rows hold, in the order they first appear.
  std::vector<std::string> names;
  for (auto row = rows_.begin(); row != end; ++row)
    for (const auto& [name, value] : row->second)
      if (std::find(names.begin(), names.end(), name) == names.end())
        names.push_back(name);
  const vtkIdType count = static_cast<vtkIdType>(std::distance(rows_.begin(), end));
  const auto column = [&](const std::string& name)
  {
    vtkNew<vtkDoubleArray> array;
    array->SetName(name.c_str());
    array->SetNumberOfValues(count);
    array->Fill(std::numeric_limits<double>::quiet_NaN());
    table->AddColumn(array);
    return array.Get();
  };
  vtkDoubleArray* time = column("Time");
  std::vector<vtkDoubleArray*> columns;
  for (const std::string& name : names)
    columns.push_back(column(name));
  vtkIdType r = 0;
  for (auto row = rows_.begin(); row != end; ++row, ++r)
  {
    time->SetValue(r, row->first);
    for (const auto& [name, value] : row->second)
      columns[static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin())]
        ->SetValue(r, value);
  }
}
} // namespace swe
