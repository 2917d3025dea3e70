#pragma once
// A run's state from one of its frames saved whole (a Shallow Water output with every array, or
// `swe run --out`'s): the fields the run keeps (depth, momentum, flood maps, infiltration), its
// time and step count, in the run's precision, so that a run restored from it continues as the
// run that wrote it would (swe run --restart, the solver's Restart Frame).
#include "Simulation.h"

#include <string>

class vtkImageData;

namespace swe
{
// frame's state for a run with params; what: how messages name the frame ("'a.vti'", "the
// input"). Throws swe::Error naming what is missing or of another grid or precision.
Snapshot frameSnapshot(vtkImageData* frame,
  const SimulationParameters& params,
  const std::string& what);
} // namespace swe
