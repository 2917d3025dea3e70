#pragma once
// The program. Its source is the kernels a run's scheme needs (embedded at build time,
// KernelSource.h); its build options fold the run's constants into it (grid and layout, launch
// shape, gravity, boundaries, precision, the device's features), so indexing and the boundary rules
// compile to constants. Built once a simulation; what the compiler said is kept, a failed build
// throws with the log.
#include "Devices.h"
#include "GridLayout.h"
#include "LaunchShape.h"
#include "LocalDatum.h"
#include "OpenCL.h"
#include "Parameters.h"
#include "TileGrid.h"

#include <array>
#include <string>
#include <vector>

namespace swe
{
// What the device offers that the program and the steppers depend on.
struct DeviceFeatures
{
  // Lax-Friedrichs steps keep the clock themselves (no compute_dt launch between steps), where
  // the device has the atomics it takes: 32-bit always, 64-bit for fp64.
  bool fusedClock = false;
  // The steps keep the wave-speed maximum in one value by atomics (kernels/device/reductions.h),
  // not one partial per group: 32-bit atomics always, 64-bit for fp64.
  bool speedAtomics = false;
  // Cells a CPU-shaped second-order kernel takes at a time: 16 where the device prefers vectors
  // that wide in the precision, else 8.
  int musclLanes = 8;
  // The frame's bounds are computed in double on the device (pack_frame_state).
  bool fp64 = false;
};

// The device's features for a run; throws swe::Error for a two-step shape on a device without
// the atomics its clock needs.
DeviceFeatures deviceFeatures(const cl::Device& device,
  const SimulationParameters& params,
  const DeviceInfo& info,
  const LaunchShape& shape);

// What the build options are made from (each part's defines: ProgramDefines.h).
struct ProgramSettings
{
  const SimulationParameters& params;
  const DeviceInfo& info;
  const LaunchShape& shape;
  const GridLayout& layout;
  const LocalDatum& local;
  const DeviceFeatures& features;
  bool perCellManning = false;
  // A run split among ranks: the sides (west, east, south, north) whose ghosts the halo exchange
  // writes (Partition.h).
  std::array<bool, 4> haloSides = {};
};

// (The options a run's program is built with are each part's defines: ProgramDefines.h.)

// The kernel sources a run's program is built from: the shared headers and kernels and the
// scheme's own for the shape, not the others (a driver compiles every kernel of a program), and
// the run's forcing series as program constants (before kernels/schemes/device_clock.h, which reads
// them; a level series relative to the local datum).
// The point sources in params' grid, in its cells: in a rank's block, those in it (each source
// is added by the rank that holds its cell, and by those whose overlap reaches it).
std::vector<PointSource> sourcesHere(const SimulationParameters& params);

std::string programSource(const SimulationParameters& params,
  const LaunchShape& shape,
  double datum = 0);

class DeviceProgram
{
public:
  // Builds source for device, or loads the binary a run before built from it (ProgramCache.h);
  // throws swe::Error naming the device and the options, with the build log (and PoCL's cache
  // problem, when that is the cause).
  DeviceProgram(const cl::Context& context,
    const cl::Device& device,
    const DeviceInfo& info,
    const std::string& source,
    const std::string& options);

  cl::Kernel kernel(const char* name) const;
  // The work-group size the kernel was built for (its reqd_work_group_size).
  cl::NDRange compiledGroup(const cl::Kernel& kernel) const;
  // What the compiler said about a build that succeeded (warnings); empty when nothing.
  const std::string& log() const { return log_; }
  // Whether the program came from the kernel cache rather than its source.
  bool fromCache() const { return fromCache_; }

private:
  bool buildFromBinary(const cl::Context& context,
    const std::vector<unsigned char>& binary,
    const std::string& options);
  void buildFromSource(const cl::Context& context,
    const DeviceInfo& info,
    const std::string& source,
    const std::string& options);

  cl::Device device_;
  cl::Program program_;
  std::string log_;
  bool fromCache_ = false;
};

// The launch ranges of the whole-grid kernels, from the group sizes the program was built with,
// so that build options such as -DWG_X=32 stay consistent with the launches.
struct GridLaunch
{
  cl::NDRange local;  // the whole-grid kernels' work-group
  cl::NDRange global; // one cell per work-item (the diagnostics)
  // The wave speeds of a fresh state: COLUMNS x ROWS cells per work-item, as the GPU-shaped
  // Lax-Friedrichs update takes them (1 x 1 for the other schemes and shapes), so that their
  // groups publish the same maxima.
  cl::NDRange speed;
  cl::NDRange reduce;  // one group of REDUCE_WG (compute_dt, diagnostics_final, frame bounds)
  int groups = 0;      // of global
  int speedGroups = 0; // of speed
  TileGrid tiles;      // where the run skips dry land
  bool stepsFoldMaps = false; // stepsFoldFloodMaps (FloodMaps.h)
};

GridLaunch gridLaunch(const DeviceProgram& program,
  const SimulationParameters& params,
  const LaunchShape& shape);

// What the engine's parts are made with: the run's parameters, the device's context and queue,
// the program and its whole-grid launches (all owned by the Simulation, and outliving the parts).
struct EngineContext
{
  const SimulationParameters& params;
  const cl::Context& context;
  cl::CommandQueue& queue;
  const DeviceProgram& program;
  const GridLaunch& grid;
};
} // namespace swe
