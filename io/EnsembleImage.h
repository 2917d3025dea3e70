#pragma once
// An ensemble's statistics (EnsembleStatistics.h) as an image of cells, as the swe tool writes
// them and ParaView shows them: a Float32 cell array a map, the terrain's Bed beside them and its
// ReliefNormals (a lit view shades the maps by the relief, as it does the solver's frames), and
// field data saying when (SimulationTime) and over how many members (Members).
#include "EnsembleStatistics.h"

#include <array>
#include <vector>

class vtkImageData;

namespace swe
{
// Fills image (its geometry and arrays replaced) with the statistics on a grid of cells dx wide
// from origin; bed holds nx * ny elevations, or is empty.
void fillEnsembleImage(vtkImageData* image,
  const EnsembleStatistics& statistics,
  const std::array<double, 3>& origin,
  double dx,
  const std::vector<double>& bed);
} // namespace swe
