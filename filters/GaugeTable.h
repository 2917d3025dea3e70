#pragma once
// The "Gauges" output of the Shallow Water source and solver: the gauges' samples up to a frame's
// time as a vtkTable, a row a step, for ParaView's Line Chart view.
#include "SimulationTypes.h"

class vtkTable;

namespace swe
{
// Fills table with a column Time [s] and, for gauge g (1, 2, ...), "G<g> Depth" [m], "G<g>
// Surface" [m] and "G<g> Speed" [m/s], from the samples of record at or before upTo (a run
// stepping ahead may have taken later ones).
void fillGaugeTable(const GaugeRecord& record, double upTo, vtkTable* table);
} // namespace swe
