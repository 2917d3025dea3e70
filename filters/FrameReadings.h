#pragma once
// The arrays a frame gets in ParaView for reading it at a glance, beyond the engine's fields:
// the bed's relief as cell normals (so that the lit map shows the terrain's shape), and the
// flood extent and hazard class read off the flood maps (solver/products/Relief.h, FloodClasses.h).
#include "RankExchange.h"

#include <vtkSmartPointer.h>

class vtkDataArray;
class vtkImageData;

namespace swe
{
// The relief of one run's bed, made from its first frame and shared by its later ones.
struct ReliefCache
{
  bool made = false;
  vtkSmartPointer<vtkDataArray> normals; // null for a flat bed
};

// Adds the relief normals of bed (the frame's nx x ny cells, dx wide) to output as its Normals,
// made once a run (cache reset by a new run); none for a flat bed. Where the output's Depth is
// above wetDepth, the water's (reliefUnderWater). In a run split among ranks (ranks not null;
// collective) the exaggeration is the same on every rank.
struct ReliefGrid
{
  int nx = 0, ny = 0;
  double dx = 0, wetDepth = 0;
};
void addRelief(vtkImageData* output,
  vtkDataArray* bed,
  const ReliefGrid& grid,
  RankExchange* ranks,
  ReliefCache& cache);

// Adds FloodExtent where output has MaxDepth, and HazardClass where it has MaxHazard too.
void addFloodClasses(vtkImageData* output, double arrivalDepth);
} // namespace swe
