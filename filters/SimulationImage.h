#pragma once
// The one place where the engine's fields become VTK arrays: used by the ParaView source and by
// the swe tool's .vti output, so both write the same arrays with the same names.
#include "FrameArrays.h"
#include "Simulation.h"

class vtkImageData;

namespace swe
{
// Fills image with one cell per simulation cell (spacing dx, origin given or 0, z = 0) and the cell
// arrays Depth, FreeSurface, Bed, Velocity, Momentum (in the simulation's precision), plus field
// data SimulationTime, Steps, Mass and Device, from state: the simulation's h, hu, hv at one
// instant on the host (Simulation::downloadState, Timeline::output), which gives the time and
// step count; the simulation may have moved on since (only its grid, bed and device are read).
// cache: the arrays of the previous frame of the same source (its Bed is shared, the others
// refilled where no one else holds them), updated to this frame's; may be null (all arrays new).
void fillSimulationImage(const Simulation& simulation,
  const StateView& state,
  vtkImageData* image,
  const double origin[3] = nullptr,
  FrameArrays* cache = nullptr);

// Adds field data StepSeconds, CheckpointSeconds and OutputSeconds: the wall-clock seconds one
// pipeline request spent stepping, taking checkpoints, and filling the image.
void addFrameTimings(vtkImageData* image, double stepping, double checkpoints, double output);
} // namespace swe
