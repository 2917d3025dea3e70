#include "SeriesTable.h"

#include "Error.h"

#include <vtkAbstractArray.h>
#include <vtkDataArray.h>
#include <vtkTable.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

namespace swe
{
namespace
{
// The column named `name` in any case, or null.
vtkAbstractArray* column(vtkTable* table, const std::string& name)
{
  for (vtkIdType k = 0; k < table->GetNumberOfColumns(); ++k)
    if (const char* n = table->GetColumnName(k))
      if (lowercase(n) == lowercase(name))
        return table->GetColumn(k);
  return nullptr;
}

vtkDataArray* numeric(vtkAbstractArray* array)
{
  auto* values = vtkDataArray::SafeDownCast(array);
  if (!values || values->GetNumberOfComponents() != 1)
    throw Error(std::string("the Series table's column '") + array->GetName() +
                "' is not a column of numbers");
  return values;
}

// Whether name is a zone's column, "PREFIX N" (N digits; prefix "rainfall" or "discharge").
bool zoneColumn(const std::string& name, const std::string& prefix)
{
  const std::string n = lowercase(name), start = prefix + " ";
  return n.size() > start.size() && n.rfind(start, 0) == 0 &&
         std::all_of(n.begin() + static_cast<std::ptrdiff_t>(start.size()),
           n.end(),
           [](unsigned char c) { return std::isdigit(c); });
}

// Whether name is a series' column (Rainfall, Rainfall N, Discharge N, a side), not the times'.
bool seriesColumn(const std::string& name)
{
  const std::string n = lowercase(name);
  const std::vector<std::string>& sides = sideNames();
  return n == "rainfall" || zoneColumn(n, "rainfall") || zoneColumn(n, "discharge") ||
         std::find(sides.begin(), sides.end(), n) != sides.end();
}

// The column names, for messages.
std::string columnNames(vtkTable* table)
{
  std::string names;
  for (vtkIdType k = 0; k < table->GetNumberOfColumns(); ++k)
    names += std::string(k ? ", " : "") + (table->GetColumnName(k) ? table->GetColumnName(k) : "");
  return names;
}
} // namespace

namespace
{
// A zone column past a gap (Rainfall 0, Rainfall 2) would be dropped without a word: refused,
// the table having given zones 0 to zones - 1 (label: "Rainfall" or "Discharge"; what: their
// zones, "rain zones" or "source zones").
void requireZonesInOrder(vtkTable* table,
  std::size_t zones,
  const std::string& label,
  const std::string& what)
{
  const std::string prefix = lowercase(label);
  for (vtkIdType k = 0; k < table->GetNumberOfColumns(); ++k)
  {
    const std::string name = table->GetColumnName(k) ? lowercase(table->GetColumnName(k)) : "";
    bool taken = false;
    for (std::size_t z = 0; z < zones; ++z)
      taken = taken || name == prefix + " " + std::to_string(z);
    if (zoneColumn(name, prefix) && !taken)
      throw Error("the Series table's " + what + " must be " + label + " 0, " + label +
                  " 1, ... with none missing: it has " + std::string(table->GetColumnName(k)) +
                  " but no " + label + " " + std::to_string(zones) +
                  " (its columns: " + columnNames(table) + ")");
  }
}
} // namespace

void applySeriesTable(vtkTable* table, SimulationParameters& params)
{
  if (!table)
    return;
  // (an empty CSV, or its column names alone, would have been no rain or a side of 0: as
  // swe run's series files)
  if (table->GetNumberOfColumns() == 0 || table->GetNumberOfRows() == 0)
    throw Error("the Series table holds no rows of numbers (" +
                (table->GetNumberOfColumns() == 0 ? std::string("no columns either")
                                                  : "columns " + columnNames(table)) +
                "): give it a Time column and a row a time, or disconnect it");
  // The times: the Time column, else the first (a CSV's "t" or "seconds"), unless that one is a
  // series' own (its values would be taken as times).
  vtkAbstractArray* timeColumn = column(table, "Time");
  const char* first = table->GetColumnName(0);
  if (!timeColumn && first && seriesColumn(first))
    throw Error("the Series table has no Time column (its columns: " + columnNames(table) +
                "): name the column of times, in s, Time");
  vtkDataArray* time = numeric(timeColumn ? timeColumn : table->GetColumn(0));
  const auto seriesOf = [&](vtkAbstractArray* array)
  {
    vtkDataArray* values = numeric(array);
    Series series;
    for (vtkIdType r = 0; r < table->GetNumberOfRows(); ++r)
      series.push_back({ time->GetComponent(r, 0), values->GetComponent(r, 0) });
    return series;
  };
  bool found = false;
  if (vtkAbstractArray* rain = column(table, "Rainfall"))
  {
    if (!params.rainSeries.empty())
      throw Error("the rainfall series comes from both the Series table and Rainfall Series: "
                  "give it in one");
    params.rainSeries = seriesOf(rain);
    found = true;
  }
  // Rain zones: columns "Rainfall 0", "Rainfall 1", ... in order, one a zone of the Rainfall
  // Array's.
  for (std::size_t z = 0; z <= kMaxRainZones; ++z)
  {
    vtkAbstractArray* zone = column(table, "Rainfall " + std::to_string(z));
    if (!zone)
      break;
    if (z == kMaxRainZones)
      throw Error("the Series table has more than " + std::to_string(kMaxRainZones) +
                  " rain zones (Rainfall 0 to Rainfall " + std::to_string(z) +
                  "): merge zones that share a hyetograph");
    params.rainZones.push_back(seriesOf(zone));
    found = true;
  }
  requireZonesInOrder(table, params.rainZones.size(), "Rainfall", "rain zones");
  // Source zones: columns "Discharge 0", "Discharge 1", ... [m^3/s], one a zone of the Source
  // Array's (SourceZones.h).
  for (std::size_t z = 0;; ++z)
  {
    vtkAbstractArray* zone = column(table, "Discharge " + std::to_string(z));
    if (!zone)
      break;
    params.sourceZones.push_back(seriesOf(zone));
    found = true;
  }
  requireZonesInOrder(table, params.sourceZones.size(), "Discharge", "source zones");
  static const char* const sides[4] = { "West", "East", "South", "North" };
  for (int side = 0; side < 4; ++side)
    if (vtkAbstractArray* values = column(table, sides[side]))
    {
      Boundary& b = params.boundaries[side];
      if (!b.series.empty())
        throw Error(std::string("the ") + lowercase(sides[side]) +
                    " side's series comes from both "
                    "the Series table and Boundary " +
                    sides[side] + " Series: give it in one");
      b.series = seriesOf(values);
      found = true;
    }
  if (!found)
    throw Error("the Series table has no column Rainfall, Rainfall 0 (rain zones), Discharge 0 "
                "(source zones), West, East, South or North (its columns: " +
                columnNames(table) + ")");
}
} // namespace swe
