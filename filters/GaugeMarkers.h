#pragma once
// The "Gauge Markers" output of the Shallow Water source and solver: where the gauges stand, as
// points numbered as the Gauges table's G1, G2, ... with their readings at a frame's time, so
// that a map marks them and a hover over a marker reads them.
#include "SimulationTypes.h"

#include <array>
#include <vector>

class vtkPolyData;

namespace swe
{
// Fills points with a vertex at each gauge's site (x, y metres from the grid's corner, which is
// at origin) and point data Gauge (its number, 1 for G1), Depth [m], Surface [m] and Speed [m/s]
// from the last sample of record at or before upTo (NaN before the first).
void fillGaugeMarkers(const std::vector<std::array<double, 2>>& sites,
  const double origin[3],
  const GaugeRecord& record,
  double upTo,
  vtkPolyData* points);
} // namespace swe
