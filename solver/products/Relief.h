#pragma once
// The terrain's shape for a lit map: unit normals of the bed, one a cell, so that a view that
// lights its surface (ParaView's Surface representation) shades slopes as a hill-shade does,
// under the water as on dry land. For display only: nothing in a run reads them.
#include <cstddef>
#include <cstdint>

namespace swe
{
// The bed's typical steepness: the 95th percentile of the slope's magnitude (rise over run) over
// the cells with a bed (NaN cells, closed or outside the domain, left out), from a sample of at
// most about a million cells. 0 for a flat bed. bed: nx * ny values, x fastest, cells dx wide.
template<class Real>
double typicalSlope(const Real* bed, int nx, int ny, double dx);

// The vertical exaggeration that shows a bed of this typical slope as one of about 30 degrees,
// from 1 (steep terrain is shown as it is) to 100 (a floodplain's gentle relief made visible).
double reliefExaggeration(double typicalSlope);

// Writes into normals (3 floats a cell) the unit normals (x, y, z, z up) of the bed with its
// heights scaled by exaggeration: central differences, one-sided next to an edge or a NaN cell,
// (0, 0, 1) on a NaN cell or one without a neighbour with a bed.
template<class Real>
void reliefNormals(const Real* bed, int nx, int ny, double dx, double exaggeration, float* normals);

// The share of the bed's slope a wet cell's normal keeps: lit through the water, the bed's banks
// would shade the water as dark as the deepest blue; a flat surface with a trace of the shape
// below reads as water.
constexpr double kReliefUnderWater = 0.25;

// normals (3 floats a cell, count cells) from bedNormals: as they are where the cell is dry
// (depth at most wetDepth, or NaN), their slope scaled by kReliefUnderWater where it is wet.
template<class Real>
void reliefUnderWater(const float* bedNormals,
  const Real* depth,
  std::size_t count,
  double wetDepth,
  float* normals);
} // namespace swe
