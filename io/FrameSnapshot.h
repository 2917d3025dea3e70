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
// frame's state for `run` to continue from; what: how messages name the frame ("'a.vti'", "the
// input"). Throws swe::Error naming what is missing or of another grid or precision, and for
// settings the frame's records cannot go on with (other gauges, another arrival depth for its
// flood maps). Other settings the run has otherwise than the frame's (RunSettings, such as its
// Manning or terrain: a hot start) go into `warning`, which names them; empty if none.
Snapshot frameSnapshot(vtkImageData* frame,
  const Simulation& run,
  const std::string& what,
  std::string& warning);
} // namespace swe
