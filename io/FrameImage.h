#pragma once
// The one place where the engine's fields become VTK arrays: used by the ParaView source and by
// the swe tool's .vti output, so both write the same arrays with the same names.
#include "FrameArrays.h"
#include "FrameRow.h"
#include "Simulation.h"

#include <array>
#include <string>
#include <cstdint>
#include <vector>

class vtkDataArray;
class vtkImageData;

namespace swe
{
// One frame's image, made from the state while its rows reach the host (Timeline::output's
// consumer), so that the host fills the first rows while the last ones cross the bus. The image
// gets one cell per simulation cell (spacing dx, origin given or 0, z = 0), the cell arrays Depth,
// FreeSurface, Bed, Velocity, Momentum and, where the run keeps them, the flood maps and the
// infiltration and inflow (in the simulation's precision; those selected), and field data
// SimulationTime, Steps, RunSettings, Mass, Device and, where the run keeps it, the water
// balance's.
class FrameImage
{
public:
  // Sets up image for simulation's grid, with arrays from cache (the arrays of the previous
  // frames of the same source: the Bed is shared, the others refilled where no one else holds
  // them; updated to this frame's) or new ones (cache null). Reads the bed from the device on the
  // first frame of a run, so make it before the simulation starts advancing ahead. Only the
  // arrays selected are made.
  FrameImage(const Simulation& simulation,
    vtkImageData* image,
    const double origin[3] = nullptr,
    FrameArrays* cache = nullptr,
    const FrameArraySelection& selection = {});

  // Fills the arrays and the field data from state (the simulation's h, hu, hv at one instant,
  // which gives the time and step count; the simulation may have moved on since), over all cores,
  // each block of rows once waitForRows says it has arrived (none: state is whole). Call once.
  void fill(const StateView& state, const RowsWait& waitForRows = {});
  // The water balance's initial volume (closingInitialVolume) and the cells rain falls on, for
  // the field data of a run that keeps it.
  void setBalance(double initial, const RainedCells& rainedCells)
  {
    balanceInitial_ = initial;
    balanceRainedCells_ = rainedCells;
  }

private:
  template<class Real>
  void fillArrays(const StateView& state, const RowsWait& waitForRows);
  // After fillArrays: the bounds VTK's GetRange returns (the device's, or the fill's), the kept
  // fields (maps, infiltration, inflow) copied, and the field data.
  void cacheArrayRanges(const FrameRanges& ranges);
  void copyKeptFields(const StateView& state);
  void addFieldData(const StateView& state, const FrameRanges& ranges);

  SimulationParameters params_;
  std::string deviceName_;
  std::string settings_;      // Simulation::settings, for a run restarted from the frame
  const GaugeRecord* gauges_; // the simulation's, collected up to the state being output
  vtkImageData* image_;
  vtkDataArray *depth_, *surface_, *bed_, *momentum_, *velocity_;
  std::array<vtkDataArray*, kKeptArrayCount> kept_{}; // the maps, infiltration, inflow; or null
  std::vector<double> rowMass_; // sum of h over each row, so that the mass is thread-independent
  std::vector<std::int64_t> rowFlooded_; // cells at or above the arrival depth, each row
  FrameRanges ranges_; // of the derived values, cached in the arrays for VTK's GetRange
  double balanceInitial_ = 0;
  RainedCells balanceRainedCells_;
};

// The selection that holds the arrays named (kFrameArrayNames; all if names is empty). Throws
// swe::Error naming an unknown one.
FrameArraySelection frameArraySelection(const std::vector<std::string>& names);

// Adds field data StepSeconds, CheckpointSeconds and OutputSeconds: the wall-clock seconds one
// pipeline request spent stepping, taking checkpoints, and filling the image; and StepsTaken,
// the steps it took in StepSeconds (the monitor's speed).
struct FrameTimings
{
  double stepping = 0, checkpoints = 0, output = 0, steps = 0;
};
void addFrameTimings(vtkImageData* image, const FrameTimings& timings);
// The device memory the run holds [bytes]: its buffers and its checkpoints there.
void addDeviceMemory(vtkImageData* image, double bytes);
} // namespace swe
