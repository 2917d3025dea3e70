#pragma once
// Time series from a table (the Shallow Water Solver's optional Series input: a CSV file read by
// ParaView's CSV reader), the ParaView way of giving a storm's hyetograph or a river's
// hydrograph: a Time column [s] and, by name, Rainfall [mm/h] and a side's West, East, South or
// North [m^2/s for an inflow, m for a level].
#include "Parameters.h"

class vtkTable;

namespace swe
{
// Sets params' rain series and sides' series from table's columns (names in any case; Time, or
// else the first column, gives the times). Throws swe::Error naming a series the properties give
// too, a column that is not numeric, or a table with none of those columns.
void applySeriesTable(vtkTable* table, SimulationParameters& params);
} // namespace swe
