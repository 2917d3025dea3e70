#pragma once
// The "Diagnostics" output of the Shallow Water source and solver: the numbers of every output a
// run has made (its field data: time, steps, mass, the water balance, the flooded area, the
// timings) as a vtkTable, a row an output time, for ParaView's Line Chart view.
#include <map>
#include <string>
#include <utility>
#include <vector>

class vtkFieldData;
class vtkTable;

namespace swe
{
class DiagnosticsHistory
{
public:
  // Keeps the one-value numeric arrays of an output's field data as its row (at SimulationTime).
  void record(vtkFieldData* field);
  // Fills table with a column Time [s] and one per number the rows hold (NaN where a row lacks
  // it), a row for each output at or before upTo.
  void fill(double upTo, vtkTable* table) const;
  void clear() { rows_.clear(); }

private:
  std::map<double, std::vector<std::pair<std::string, double>>> rows_;
};
} // namespace swe
