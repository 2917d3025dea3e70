#include "Simulation.h"

#include "Error.h"
#include "HostMemory.h"
#include "HugePages.h"
#include "KernelSource.h"
#include "LaunchTuner.h"
#include "LocalDatum.h"
#include "OpenCL.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <limits>
#include <new>
#include <sstream>

namespace swe
{
namespace
{
constexpr int kGhost = 2;    // ghost layers: wide enough for a second-order stencil
constexpr int kCtrlSize = 9; // must match CTRL_* in kernels/swe_common.h
constexpr int kCtrlTime = 0, kCtrlTimeComp = 1, kCtrlTarget = 3, kCtrlLastDt = 4, kCtrlTooFast = 8;
constexpr int kStatusSteps = 0, kStatusBadCell = 1, kStatusBadStep = 2, kStatusParity = 5,
              kStatusStepLimit = 6, kStatusRefused = 7, kStatusRedone = 10, kStatusTooFast = 11;
constexpr int kStatusSize = 12; // must match STATUS_SIZE

std::uint64_t roundUp(std::uint64_t value, std::uint64_t multiple)
{
  return (value + multiple - 1) / multiple * multiple;
}

// Row layout: every row's interior starts on a 128-byte boundary (whole memory transactions for
// the aligned loads and stores of a row), after an offset that holds the left ghost layers.
constexpr std::uint64_t kRowAlignBytes = 128;
std::uint64_t rowOffsetCells(std::uint64_t realSize)
{
  return kRowAlignBytes / realSize;
}
std::uint64_t rowPitchCells(std::uint64_t nx, std::uint64_t realSize)
{
  return roundUp(rowOffsetCells(realSize) + nx + kGhost, kRowAlignBytes / realSize);
}
std::uint64_t paddedCells(std::uint64_t nx, std::uint64_t ny, std::uint64_t realSize)
{
  return rowPitchCells(nx, realSize) * (ny + 2 * kGhost);
}

// The kernel sources without the other schemes' step kernels, which a build would compile for
// nothing (NVIDIA's driver compiles a program's every kernel: a third of a cold build there,
// PERFORMANCE.md). Files are cut at the markers cmake/EmbedKernels.cmake writes; without them,
// everything.
std::string schemeSource(Scheme scheme)
{
  std::string source = kernelSource();
  const std::string left = scheme == Scheme::LaxFriedrichs ? "muscl_hllc.cl" : "lax_friedrichs.cl";
  const std::size_t begin = source.find("\n// ---- " + left + "\n");
  if (begin == std::string::npos)
    return source;
  const std::size_t end = source.find("\n// ---- ", begin + 1);
  source.erase(begin + 1, end == std::string::npos ? std::string::npos : end - begin);
  return source;
}

std::string gib(std::uint64_t bytes)
{
  char text[32];
  std::snprintf(text, sizeof(text), "%.2f GiB", bytes / (1024.0 * 1024.0 * 1024.0));
  return text;
}

// Runs f and turns OpenCL failures, and host memory running out, into the engine's error type.
template<class F>
auto guarded(const char* what, F&& f) -> decltype(f())
{
  try
  {
    return f();
  }
  catch (const cl::Error& e)
  {
    throw Error(std::string(what) + ": " + describe(e));
  }
  catch (const std::bad_alloc&)
  {
    throw Error(std::string(what) + ": out of host memory (use fewer cells, or close other "
                                    "programs)");
  }
}
} // namespace

struct DeviceSnapshotMemory
{
  cl::Buffer buffer; // h, hu, hv packed, as Snapshot::data would hold them
};

struct Simulation::Impl
{
  SimulationParameters params;
  DeviceInfo info;
  std::size_t realSize = 8;
  cl::Context context;
  cl::CommandQueue queue;
  cl::Program program;
  // Ping-pong state (thesis 4.5.8): index = which copy holds the current state.
  std::array<cl::Buffer, 2> h, hu, hv;
  cl::Buffer bed, manningField, ctrl, status, partialMax, diagSum, diagMaxDepth, diagMaxSpeed,
    diagResult;
  // One kernel object per parity, so the step loop never re-sets arguments.
  std::array<cl::Kernel, 2> fillGhosts, update, waveSpeed, diagPartials;
  // Lax-Friedrichs, two steps a launch (shape.steps == 2 with the fused clock). Which copy holds
  // the state is kept on the device (a launch may be refused); a launch reading the other copy
  // does nothing.
  std::array<cl::Kernel, 2> updateTwice;
  // MUSCL-HLLC: the state stays in copy 0, copy 1 holds the Heun predictor.
  std::array<cl::Kernel, 2> musclStage;
  // MUSCL-Hancock: a step reads copy p and writes the other, in a launch of the first pass and
  // one of the second, which does nothing unless the first took a depth below zero.
  std::array<cl::Kernel, 2> hancockStep, hancockCapped;
  cl::Kernel computeDt, diagFinal;
  LaunchShape shape;
  cl::NDRange localRange, globalRange, reduceRange;
  cl::NDRange speedRange, updateRange, updateLocal; // fresh-state speeds; the LF update
  cl::NDRange musclRange, musclLocal;               // the second-order stages
  std::size_t ghostCells = 0;
  int numGroups = 0;    // groups of the whole-grid kernels (diagnostics)
  int speedGroups = 0;  // groups publishing wave-speed maxima, which compute_dt reads
  int updateGroups = 0; // groups of the Lax-Friedrichs update launch
  int musclGroups = 0;  // groups of a second-order stage
  int current = 0;
  double time = 0.0;
  double lastDt = 0.0;
  double target = 0.0; // the time the clock must not pass (setTarget; a loaded state's own)
  std::int64_t steps = 0;
  std::int64_t refused = 0; // two-step launches refused (adaptive dt)
  std::int64_t redone = 0;  // MUSCL-Hancock steps taken again with the outflow cap
  int batchLimit = 64;
  bool perCellManning = false;
  // Elevations on the device are relative to local.datum; films thinner than local.filmDepth
  // have their velocities damped (LocalDatum.h).
  LocalDatum local;
  std::string buildLog; // the compiler's messages for a build that succeeded (warnings)
  SetupSeconds setup;   // the constructor's parts
  // Lax-Friedrichs steps keep the clock themselves (no compute_dt launch between steps), where
  // the device has the atomics it takes: 32-bit always, 64-bit for fp64.
  bool fusedClock = false;
  int musclLanes = 8; // cells a CPU-shaped second-order kernel takes at a time (build())
  // downloadState()'s host memory: a buffer the driver allocates in host memory, mapped for the
  // simulation's life (the device never uses it in a kernel), or ordinary memory where the driver
  // cannot give one.
  cl::Buffer hostState;
  std::vector<unsigned char> hostStateFallback;
  unsigned char* hostStateData = nullptr; // the mapped buffer or the fallback; null until used
  // downloadStateThenAdvance(): the state copied on the device (h, hu, hv packed, as the host
  // view), read to the host on a queue of its own while this queue takes the next steps. Made on
  // first use where the device has room; else that call downloads first and then advances.
  cl::Buffer frameState;
  cl::CommandQueue copyQueue;
  bool frameStateTried = false;
  // The bounds of a frame's derived values on the device (pack_frame_state; needs fp64): the
  // state packed as packState does, and per-group partials of the bounds, read to the host and
  // widened there.
  cl::Kernel packWithRanges;
  cl::Buffer rangePartials;
  std::vector<cl_double> rangePartialsHost;
  cl::NDRange rangeGlobal;
  static constexpr int kRangeValues = 17; // 8 (min, max) pairs and the denormal flag
  // An advance started (startAdvance) and not yet waited for: time, steps and the parity are
  // those before it until settle() reads the clock.
  bool advancing = false;

  Impl() = default;
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;
  ~Impl()
  {
    if (!hostState())
      return;
    try
    {
      queue.enqueueUnmapMemObject(hostState, hostStateData);
      queue.finish();
    }
    catch (const cl::Error&)
    {
      // Releasing the buffer below frees the memory anyway; a destructor must not throw.
    }
  }

  // Whether frames take their bounds on the device: on GPUs, and where the build options ask for
  // it (-DSWE_DEVICE_RANGES: tests take that path on any device).
  bool wantsDeviceRanges() const
  {
    return info.type == "GPU" ||
           params.buildOptions.find("-DSWE_DEVICE_RANGES") != std::string::npos;
  }

  // Two steps a launch (build() refuses them without the fused clock).
  bool twoSteps() const { return shape.steps == 2; }

  std::size_t pitch() const { return rowPitchCells(params.nx, realSize); }
  std::size_t offsetX() const { return rowOffsetCells(realSize); }
  std::size_t padded() const { return paddedCells(params.nx, params.ny, realSize); }

  // A number as an OpenCL C literal of the device precision, exactly as the host has it.
  std::string literal(double value) const
  {
    char text[64];
    const bool single = params.precision == Precision::Single;
    std::snprintf(text, sizeof(text), single ? "%.9g" : "%.17g", value);
    std::string literal = text;
    if (literal.find_first_of(".e") == std::string::npos)
      literal += ".0"; // "0f" is not a floating-point literal
    return single ? literal + "f" : literal;
  }

  // A number as an OpenCL C double literal, exactly as the host has it.
  static std::string doubleLiteral(double value)
  {
    char text[64];
    std::snprintf(text, sizeof(text), "%.17g", value);
    std::string literal = text;
    return literal.find_first_of(".e") == std::string::npos ? literal + ".0" : literal;
  }

  // A boundary's value as the device holds it: a water level relative to the local datum.
  double boundaryValueOnDevice(const Boundary& side) const
  {
    return side.type == BoundaryType::FixedLevel ? side.value - local.datum : side.value;
  }

  std::string buildOptions() const
  {
    // The reduction group is a power of two.
    std::size_t reduce = 256;
    while (reduce > info.maxWorkGroupSize)
      reduce /= 2;
    // Whether the user's build options define the macro (tests set the engine's own choices).
    const auto userDefines = [&](const char* macro)
    { return params.buildOptions.find(std::string("-D") + macro) != std::string::npos; };
    std::ostringstream s;
    for (int side = 0; side < 4; ++side)
    {
      static const char* const suffix[4] = { "WEST", "EAST", "SOUTH", "NORTH" };
      s << "-DBC_" << suffix[side] << "=" << static_cast<int>(params.boundaries[side].type)
        << " -DBCV_" << suffix[side] << "="
        << literal(boundaryValueOnDevice(params.boundaries[side])) << " ";
    }
    // fp32 flushes denormals (below 1.2e-38, nothing a flood holds): the second-order sweeps
    // run 10 % faster on the H200 without the division and square-root slow paths they take
    // (PERFORMANCE.md); Lax-Friedrichs is unchanged.
    s << "-cl-std=CL1.2 "
      << (params.precision == Precision::Double ? "-DSWE_DOUBLE " : "-cl-denorms-are-zero ")
      << "-DNX=" << params.nx << " -DNY=" << params.ny << " -DGHOST=" << kGhost
      << " -DPITCH=" << pitch() << " -DOFFSET=" << offsetX() << " -DWG_X=" << shape.groupX
      << " -DWG_Y=" << shape.groupY << " -DROWS=" << (shape.wholeRows ? 1 : shape.rows)
      << " -DCOLUMNS=" << columnsPerItem(shape, params) << " -DBLOCK_ROWS=" << shape.rows
      << " -DREDUCE_WG=" << reduce << " -DGRAVITY=" << literal(params.gravity)
      << " -DH_DRY=" << kDryDepth << " -DH_FILM=" << literal(local.filmDepth)
      << " -DELEVATION_DATUM=" << doubleLiteral(local.datum)
      << " -DFUSED_CLOCK=" << (fusedClock ? 1 : 0)
      << " -DINFLOW_WAVE_SPEED=" << literal(inflowWaveSpeed(params)) << " -DTWO_STEPS="
      << (twoSteps() ? 1 : 0)
      // (Tests of the blow-up check itself switch the limit off: -DCOURANT_LIMIT_DX=INFINITY.)
      << (userDefines("COURANT_LIMIT_DX") ? "" : " -DCOURANT_LIMIT_DX=" + literal(courantLimitDx()))
      << " -DPAIR_SPEED_MARGIN=" << literal(kPairSpeedMargin)
      << (perCellManning ? " -DMANNING_FIELD " : " ")
      // fp64 reciprocals and square roots from float estimates on GPUs, whose fp64 division and
      // root are long software sequences; CPUs divide (kernels/swe_common.h says why). Unless
      // the build options choose (tests take both on any device).
      << (params.precision == Precision::Double && info.type == "GPU" && !userDefines("NEWTON_FP64")
             ? "-DNEWTON_FP64=1 "
             : "")
      // The CPU-shaped second-order path: the arithmetic on 8 or 16 cells at a time (unless
      // the build options set the width: tests take both on any device).
      << (shape.wholeRows && isSecondOrder(params.scheme) && !userDefines("MUSCL_LANES")
             ? "-DMUSCL_LANES=" + std::to_string(musclLanes) + " "
             : "")
      << params.buildOptions;
    return s.str();
  }

  // The build log without what drivers say about every clean build: blanks, a newline or a NUL,
  // and NVIDIA's "Function X is a kernel, so overriding noinline attribute" for each kernel.
  static std::string withoutDriverNoise(const std::string& log)
  {
    std::istringstream lines(log);
    std::string line, kept;
    while (std::getline(lines, line))
      if (line.find("is a kernel, so overriding noinline attribute") == std::string::npos)
        kept += line + "\n";
    if (kept.find_first_not_of(std::string(" \t\r\n\0", 5)) == std::string::npos)
      kept.clear();
    return kept;
  }

  void build()
  {
    const cl::Device device = openclDevices().at(static_cast<std::size_t>(info.index));
    const std::string extensions = device.getInfo<CL_DEVICE_EXTENSIONS>();
    // The CPU-shaped second-order kernels' width: 16 lanes where the device prefers vectors
    // that wide (PoCL with AVX-512, fp32: about 1.3x 8 lanes, PERFORMANCE.md), else 8.
    musclLanes = (params.precision == Precision::Double
                     ? device.getInfo<CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE>()
                     : device.getInfo<CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT>()) >= 16
                   ? 16
                   : 8;
    // (-DSWE_NO_SPEED_ATOMICS: as on a device without them, for tests; kernels/swe_common.h.)
    const bool atomicsOff = params.buildOptions.find("-DSWE_NO_SPEED_ATOMICS") != std::string::npos;
    fusedClock = params.scheme == Scheme::LaxFriedrichs && !atomicsOff &&
                 (params.precision == Precision::Single ||
                   (extensions.find("cl_khr_int64_base_atomics") != std::string::npos &&
                     extensions.find("cl_khr_int64_extended_atomics") != std::string::npos));
    // Said, not silently run one step a launch (the tuner leaves such shapes out).
    if (shape.steps == 2 && !fusedClock)
      throw Error("launch shape " + shape.text() + ": two steps a launch keep the clock on the " +
                  "device, which needs atomics (64-bit ones in double precision) that '" +
                  info.name + "' lacks; use a shape without s2");
    context = cl::Context(device);
    queue = cl::CommandQueue(context, device);
    program = cl::Program(context, schemeSource(params.scheme));
    const std::string options = buildOptions();
    try
    {
      program.build(std::vector<cl::Device>{ device }, options.c_str());
      buildLog = withoutDriverNoise(program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device));
    }
    catch (const cl::BuildError& e)
    {
      std::string log;
      for (const auto& entry : e.getBuildLog())
        log += entry.second;
      // PoCL fails every build, with an empty log, when it cannot write its kernel cache: the
      // cause and the fix first, ahead of the options.
      const std::string pocl = poclCacheProblem(info);
      const std::string what = pocl.empty() ? " with options '" + options + "'"
                                            : ": " + pocl + ". Build options: '" + options + "'";
      throw Error("the OpenCL kernels failed to build on '" + info.name + "'" + what +
                  ". Build log:\n" + log);
    }
    catch (const cl::Error& e)
    {
      std::string log = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device);
      const std::string pocl = poclCacheProblem(info);
      throw Error("the OpenCL kernels failed to build on '" + info.name + "' (" + describe(e) +
                  ")" + (pocl.empty() ? "" : ": " + pocl) + ". Build log:\n" + log);
    }
    for (int p = 0; p < 2; ++p)
    {
      fillGhosts[p] = cl::Kernel(program, "fill_ghosts");
      waveSpeed[p] = cl::Kernel(program, "wave_speed_partials");
      diagPartials[p] = cl::Kernel(program, "diagnostics_partials");
      // Only the scheme's own step kernels (the others are left unbound).
      if (params.scheme == Scheme::LaxFriedrichs && !twoSteps())
        update[p] =
          cl::Kernel(program, shape.wholeRows ? "lax_friedrichs_rows" : "lax_friedrichs_step");
      if (params.scheme == Scheme::MusclHllc)
        musclStage[p] =
          cl::Kernel(program, shape.wholeRows ? "muscl_hllc_rows" : "muscl_hllc_stage");
      if (params.scheme == Scheme::MusclHancock)
      {
        const std::string name = shape.wholeRows ? "muscl_hancock_rows" : "muscl_hancock_step";
        hancockStep[p] = cl::Kernel(program, name.c_str());
        hancockCapped[p] = cl::Kernel(program, (name + "_capped").c_str());
      }
      if (twoSteps())
        updateTwice[p] = cl::Kernel(program, "lax_friedrichs_two_steps");
    }
    computeDt = cl::Kernel(program, "compute_dt");
    diagFinal = cl::Kernel(program, "diagnostics_final");
    if (params.precision == Precision::Double ||
        extensions.find("cl_khr_fp64") != std::string::npos)
      packWithRanges = cl::Kernel(program, "pack_frame_state");
    // The work-group shapes come from the kernels themselves (reqd_work_group_size), so that
    // buildOptions overrides such as -DWG_X=32 stay consistent with the launches.
    const auto wg = waveSpeed[0].getWorkGroupInfo<CL_KERNEL_COMPILE_WORK_GROUP_SIZE>(device);
    const auto rg = computeDt.getWorkGroupInfo<CL_KERNEL_COMPILE_WORK_GROUP_SIZE>(device);
    localRange = cl::NDRange(wg[0], wg[1]);
    reduceRange = cl::NDRange(rg[0]);
    // Whole-grid kernels (and the second-order stages) cover one cell per work-item; the
    // GPU-shaped Lax-Friedrichs update and the fresh-state wave speeds COLUMNS x ROWS cells
    // (1 x 1 for the other schemes and shapes), so their groups publish the same maxima.
    const std::uint64_t groupsX = roundUp(params.nx, wg[0]) / wg[0];
    const std::uint64_t groupsY = roundUp(params.ny, wg[1]) / wg[1];
    const int columns = columnsPerItem(shape, params),
              rowsPerItem = shape.wholeRows ? 1 : shape.rows;
    const std::uint64_t speedGroupsX = roundUp((params.nx + columns - 1) / columns, wg[0]) / wg[0];
    const std::uint64_t speedGroupsY =
      roundUp((params.ny + rowsPerItem - 1) / rowsPerItem, wg[1]) / wg[1];
    globalRange = cl::NDRange(groupsX * wg[0], groupsY * wg[1]);
    speedRange = cl::NDRange(speedGroupsX * wg[0], speedGroupsY * wg[1]);
    numGroups = static_cast<int>(groupsX * groupsY);
    speedGroups = static_cast<int>(speedGroupsX * speedGroupsY);
    // The CPU-shaped update: one work-item per group, each `rows` whole rows.
    updateRange =
      shape.wholeRows ? cl::NDRange((params.ny + shape.rows - 1) / shape.rows) : speedRange;
    updateLocal = shape.wholeRows ? cl::NDRange(1) : localRange;
    updateGroups = shape.wholeRows ? static_cast<int>(updateRange[0]) : speedGroups;
    // A second-order group updates groupX - 4 cells of each of its `rows` rows (its two items
    // at either end only supply neighbours); on the CPU-shaped path, as Lax-Friedrichs's.
    if (isSecondOrder(params.scheme) && shape.wholeRows)
    {
      musclRange = updateRange;
      musclLocal = updateLocal;
      musclGroups = updateGroups;
    }
    else if (isSecondOrder(params.scheme))
    {
      const std::uint64_t updatedX = static_cast<std::uint64_t>(shape.groupX - 4);
      const std::uint64_t musclX = (params.nx + updatedX - 1) / updatedX,
                          musclY = (params.ny + shape.rows - 1) / shape.rows;
      musclRange = cl::NDRange(musclX * shape.groupX, musclY);
      musclLocal = cl::NDRange(shape.groupX, 1);
      musclGroups = static_cast<int>(musclX * musclY);
    }
    ghostCells =
      2 * kGhost * (params.nx + 2 * kGhost) + 2 * kGhost * static_cast<std::size_t>(params.ny);
  }

  void allocate()
  {
    const std::size_t bytes = padded() * realSize;
    for (int p = 0; p < 2; ++p)
    {
      h[p] = cl::Buffer(context, CL_MEM_READ_WRITE, bytes);
      hu[p] = cl::Buffer(context, CL_MEM_READ_WRITE, bytes);
      hv[p] = cl::Buffer(context, CL_MEM_READ_WRITE, bytes);
    }
    bed = cl::Buffer(context, CL_MEM_READ_WRITE, bytes);
    // A per-cell Manning field only when one was given; otherwise a placeholder argument.
    manningField = cl::Buffer(context, CL_MEM_READ_ONLY, perCellManning ? bytes : realSize);
    ctrl = cl::Buffer(context, CL_MEM_READ_WRITE, kCtrlSize * realSize);
    status = cl::Buffer(context, CL_MEM_READ_WRITE, kStatusSize * sizeof(cl_int));
    // The diagnostics' partials and the wave-speed ones.
    const std::size_t partialBytes =
      std::max(static_cast<std::size_t>(numGroups), speedPartials()) * realSize;
    partialMax = cl::Buffer(context, CL_MEM_READ_WRITE, partialBytes);
    diagSum = cl::Buffer(context, CL_MEM_READ_WRITE, partialBytes);
    diagMaxDepth = cl::Buffer(context, CL_MEM_READ_WRITE, partialBytes);
    diagMaxSpeed = cl::Buffer(context, CL_MEM_READ_WRITE, partialBytes);
    diagResult = cl::Buffer(context, CL_MEM_READ_WRITE, 3 * realSize);
  }

  // A number passed to a kernel in the device precision.
  struct Real
  {
    double value;
  };

  void setArg(cl::Kernel& kernel, cl_uint index, Real real)
  {
    if (params.precision == Precision::Double)
      kernel.setArg(index, static_cast<cl_double>(real.value));
    else
      kernel.setArg(index, static_cast<cl_float>(real.value));
  }

  template<class T>
  void setArg(cl::Kernel& kernel, cl_uint index, const T& value)
  {
    kernel.setArg(index, value);
  }

  // Sets a kernel's arguments in order.
  template<class... Args>
  void setArgs(cl::Kernel& kernel, const Args&... args)
  {
    cl_uint index = 0;
    (setArg(kernel, index++, args), ...);
  }

  // MUSCL-HLLC keeps depths non-negative for dt <= dx / (4 max speed): the second-order
  // schemes' Courant number is counted against half the Lax-Friedrichs step (Parameters.h).
  double cflDx() const
  {
    return params.cfl * params.dx * (isSecondOrder(params.scheme) ? 0.5 : 1.0);
  }

  // The same at the largest Courant number: a fixed dt whose step goes past it is refused.
  double courantLimitDx() const
  {
    return kMaxCourantNumber * params.dx * (isSecondOrder(params.scheme) ? 0.5 : 1.0);
  }

  // The time the clock must not pass and the step count it must not pass (INT_MAX: none); with
  // the fused clock, dt is chosen again for them (the pending step was chosen for the old ones
  // and not taken yet).
  void setTarget(double newTarget, std::int64_t stepLimit = INT_MAX)
  {
    target = newTarget;
    const cl_int limit = static_cast<cl_int>(std::min<std::int64_t>(stepLimit, INT_MAX));
    queue.enqueueWriteBuffer(
      status, CL_TRUE, kStatusStepLimit * sizeof(cl_int), sizeof(limit), &limit);
    writeReal(kCtrlTarget, newTarget);
    if (fusedClock)
      queue.enqueueNDRangeKernel(computeDt, cl::NullRange, reduceRange, reduceRange);
  }

  void bindKernels()
  {
    for (int p = 0; p < 2; ++p)
    {
      const int q = 1 - p;
      setArgs(fillGhosts[p], h[p], hu[p], hv[p], bed);
      // Stage p reads copy p and writes copy 1 - p; stage 1 averages with copy 0 (the state).
      if (musclStage[p]())
        setArgs(musclStage[p],
          h[p],
          hu[p],
          hv[p],
          bed,
          h[0],
          hu[0],
          hv[0],
          h[q],
          hu[q],
          hv[q],
          ctrl,
          status,
          partialMax,
          Real{ params.manning },
          Real{ 1.0 / params.dx },
          static_cast<cl_int>(p),
          manningField);
      for (cl::Kernel* k : { &hancockStep[p], &hancockCapped[p] })
        if ((*k)())
          setArgs(*k,
            h[p],
            hu[p],
            hv[p],
            bed,
            h[q],
            hu[q],
            hv[q],
            ctrl,
            status,
            partialMax,
            Real{ params.manning },
            Real{ 1.0 / params.dx },
            manningField);
      // The Lax-Friedrichs update kernels read copy p and write the other.
      const auto bindUpdate = [&](cl::Kernel& k)
      {
        setArgs(k,
          h[p],
          hu[p],
          hv[p],
          h[q],
          hu[q],
          hv[q],
          ctrl,
          status,
          partialMax,
          Real{ params.manning },
          Real{ 1.0 / params.dx },
          manningField,
          bed,
          Real{ cflDx() },
          Real{ params.fixedDt },
          static_cast<cl_int>(updateGroups));
      };
      if (update[p]())
        bindUpdate(update[p]);
      if (twoSteps())
      {
        bindUpdate(updateTwice[p]);
        updateTwice[p].setArg(16, static_cast<cl_int>(p));
      }
      setArgs(waveSpeed[p], h[p], hu[p], hv[p], partialMax);
      setArgs(diagPartials[p], h[p], hu[p], hv[p], diagSum, diagMaxDepth, diagMaxSpeed);
    }
    setArgs(computeDt,
      partialMax,
      static_cast<cl_int>(speedPartials()),
      ctrl,
      status,
      Real{ cflDx() },
      Real{ params.fixedDt },
      static_cast<cl_int>(fusedClock ? 0 : 1));
    setArgs(
      diagFinal, diagSum, diagMaxDepth, diagMaxSpeed, static_cast<cl_int>(numGroups), diagResult);
  }

  // Host <-> device in the device precision; interior only (ghost layers are the device's).
  std::array<std::size_t, 3> interiorOrigin() const { return { offsetX() * realSize, kGhost, 0 }; }
  std::array<std::size_t, 3> interiorRegion() const
  {
    return {
      static_cast<std::size_t>(params.nx) * realSize, static_cast<std::size_t>(params.ny), 1
    };
  }

  template<class T>
  void writeInterior(const cl::Buffer& buffer, const T* values)
  {
    queue.enqueueWriteBufferRect(buffer,
      CL_TRUE,
      interiorOrigin(),
      { 0, 0, 0 },
      interiorRegion(),
      pitch() * realSize,
      0,
      params.nx * realSize,
      0,
      values);
  }

  template<class T>
  void readInterior(const cl::Buffer& buffer, T* values, cl_bool blocking = CL_TRUE) const
  {
    queue.enqueueReadBufferRect(buffer,
      blocking,
      interiorOrigin(),
      { 0, 0, 0 },
      interiorRegion(),
      pitch() * realSize,
      0,
      params.nx * realSize,
      0,
      values);
  }

  // Bytes of one field's interior cells, as the host and snapshots hold them.
  std::size_t fieldBytes() const
  {
    return static_cast<std::size_t>(params.nx) * params.ny * realSize;
  }

  // h, hu, hv of the interior cells into out, one field after the other: three copies queued at
  // once, one wait.
  void readState(unsigned char* out) const
  {
    for (int f = 0; f < 3; ++f)
      readInterior(buffer(static_cast<Field>(f)), out + f * fieldBytes(), CL_FALSE);
    queue.finish();
  }

  // The reverse of readState, into copy 0 (restore()).
  void writeState(const unsigned char* in)
  {
    const cl::Buffer* copy0[3] = { &h[0], &hu[0], &hv[0] };
    for (int f = 0; f < 3; ++f)
      writeInterior(*copy0[f], in + f * fieldBytes());
  }

  // Whether a snapshot's device memory belongs to this simulation's context (device buffers of
  // one context cannot be copied into another's).
  bool holds(const DeviceSnapshotMemory& memory) const
  {
    return memory.buffer.getInfo<CL_MEM_CONTEXT>()() == context();
  }

  // The current h, hu, hv's interior cells copied on the device into to, packed as readState()
  // writes them; done, when given, marks the last copy.
  void packState(const cl::Buffer& to, cl::Event* done = nullptr)
  {
    for (int f = 0; f < 3; ++f)
      queue.enqueueCopyBufferRect(buffer(static_cast<Field>(f)),
        to,
        interiorOrigin(),
        { f * fieldBytes(), 0, 0 },
        interiorRegion(),
        pitch() * realSize,
        0,
        params.nx * realSize,
        0,
        nullptr,
        f == 2 ? done : nullptr);
  }

  // The reverse of packState, into copy 0 (restore()).
  void unpackState(const cl::Buffer& from)
  {
    const cl::Buffer* copy0[3] = { &h[0], &hu[0], &hv[0] };
    for (int f = 0; f < 3; ++f)
      queue.enqueueCopyBufferRect(from,
        *copy0[f],
        { f * fieldBytes(), 0, 0 },
        interiorOrigin(),
        interiorRegion(),
        params.nx * realSize,
        0,
        pitch() * realSize,
        0);
  }

  // A whole buffer from nx * ny values: values - offset (the local datum, for elevations) in the
  // device precision, ghosts and padding zero. Padded rows are made a few MiB at a time, two
  // blocks taking turns (one is filled while the other is written): no host copy of the grid and
  // no fill of the buffer before it, one pass over the device's memory.
  template<class Device>
  void uploadWholeAs(const cl::Buffer& buffer, const std::vector<double>& values, double offset)
  {
    const std::size_t rowCells = pitch(), rows = static_cast<std::size_t>(params.ny) + 2 * kGhost;
    const std::size_t nx = static_cast<std::size_t>(params.nx);
    const std::size_t blockRows =
      std::clamp<std::size_t>((std::size_t(4) << 20) / (rowCells * sizeof(Device)), 1, rows);
    std::array<std::vector<Device>, 2> block;
    std::array<cl::Event, 2> written;
    for (std::size_t first = 0, k = 0; first < rows; first += blockRows, k = 1 - k)
    {
      const std::size_t count = std::min(blockRows, rows - first);
      if (written[k]())
        written[k].wait();
      block[k].assign(count * rowCells, Device(0));
      for (std::size_t row = std::max<std::size_t>(first, kGhost);
           row < std::min<std::size_t>(first + count, kGhost + params.ny);
           ++row)
      {
        const double* in = values.data() + (row - kGhost) * nx;
        Device* out = block[k].data() + (row - first) * rowCells + offsetX();
        for (std::size_t i = 0; i < nx; ++i)
          out[i] = static_cast<Device>(in[i] - offset);
      }
      queue.enqueueWriteBuffer(buffer,
        CL_FALSE,
        first * rowCells * sizeof(Device),
        count * rowCells * sizeof(Device),
        block[k].data(),
        nullptr,
        &written[k]);
    }
    for (cl::Event& event : written)
      if (event())
        event.wait();
  }

  void uploadWhole(const cl::Buffer& buffer, const std::vector<double>& values, double offset = 0)
  {
    if (params.precision == Precision::Double)
      uploadWholeAs<cl_double>(buffer, values, offset);
    else
      uploadWholeAs<cl_float>(buffer, values, offset);
  }

  const cl::Buffer& buffer(Field field) const
  {
    switch (field)
    {
      case Field::Depth:
        return h[current];
      case Field::MomentumX:
        return hu[current];
      case Field::MomentumY:
        return hv[current];
      case Field::Bed:
        break;
    }
    return bed;
  }

  template<class Out>
  void download(const cl::Buffer& buffer, Out* out) const
  {
    const bool same = (sizeof(Out) == realSize);
    if (same)
    {
      readInterior(buffer, out);
      return;
    }
    const std::size_t n = static_cast<std::size_t>(params.nx) * params.ny;
    if (params.precision == Precision::Double)
    {
      std::vector<cl_double> tmp(n);
      readInterior(buffer, tmp.data());
      std::copy(tmp.begin(), tmp.end(), out);
    }
    else
    {
      std::vector<cl_float> tmp(n);
      readInterior(buffer, tmp.data());
      std::copy(tmp.begin(), tmp.end(), out);
    }
  }

  // A field's values into out; the bed back above the local datum, rounded once to Out.
  template<class Out>
  void downloadField(Field field, Out* out) const
  {
    if (field != Field::Bed || local.datum == 0)
    {
      download(buffer(field), out);
      return;
    }
    std::vector<double> relative(static_cast<std::size_t>(params.nx) * params.ny);
    download(buffer(field), relative.data());
    for (std::size_t k = 0; k < relative.size(); ++k)
      out[k] = static_cast<Out>(relative[k] + local.datum);
  }

  template<class T>
  std::vector<double> readReals(const cl::Buffer& buffer, std::size_t count) const
  {
    std::vector<T> raw(count);
    queue.enqueueReadBuffer(buffer, CL_TRUE, 0, count * sizeof(T), raw.data());
    return std::vector<double>(raw.begin(), raw.end());
  }

  std::vector<double> readReals(const cl::Buffer& buffer, std::size_t count) const
  {
    return params.precision == Precision::Double ? readReals<cl_double>(buffer, count)
                                                 : readReals<cl_float>(buffer, count);
  }

  void writeReal(std::size_t slot, double value)
  {
    if (params.precision == Precision::Double)
    {
      const cl_double v = value;
      queue.enqueueWriteBuffer(ctrl, CL_TRUE, slot * sizeof(v), sizeof(v), &v);
    }
    else
    {
      const cl_float v = static_cast<cl_float>(value);
      queue.enqueueWriteBuffer(ctrl, CL_TRUE, slot * sizeof(v), sizeof(v), &v);
    }
  }

  // A target time no run reaches: steps without a target (step(n), benchmarks).
  double unboundedTarget() const
  {
    return params.precision == Precision::Double ? std::numeric_limits<double>::max()
                                                 : std::numeric_limits<float>::max();
  }

  // The bed, the roughness field and the state at t = 0, clock included. (Copy 1's ghosts and
  // padding are zero, as after clearState; the roughness field's too: the lanes past the grid of
  // a CPU-shaped kernel read them, and never store what they give.)
  void initialise(const InitialState& initial)
  {
    uploadWhole(bed, initial.bed, local.datum);
    if (perCellManning)
      uploadWhole(manningField, initial.manning);
    for (const cl::Buffer* b : { &h[1], &hu[1], &hv[1] })
      queue.enqueueFillBuffer(*b, cl_uchar(0), 0, padded() * realSize);
    uploadWhole(h[0], initial.h);
    uploadWhole(hu[0], initial.hu);
    uploadWhole(hv[0], initial.hv);
    startFrom(0.0, 0, 0.0);
  }

  void clearState()
  {
    const std::size_t bytes = padded() * realSize;
    for (const cl::Buffer* b : { &h[0], &hu[0], &hv[0], &h[1], &hu[1], &hv[1] })
      queue.enqueueFillBuffer(*b, cl_uchar(0), 0, bytes);
  }

  // The clock, the status and the first wave speeds, for the state now in copy 0.
  void startFrom(double t, std::int64_t count, double dtBefore)
  {
    // A state taken at a target time has a zero clock compensation, so writing its time back
    // reproduces the device clock exactly.
    const double clock[kCtrlSize] = { t, 0.0, 0.0, t, dtBefore, 0.0, 0.0, 0.0, 0.0 };
    for (std::size_t slot = 0; slot < kCtrlSize; ++slot)
      writeReal(slot, clock[slot]);
    const cl_int statusInit[kStatusSize] = {
      static_cast<cl_int>(count), INT_MAX, -1, 0, INT_MAX, 0, INT_MAX, 0, 0, 0, 0, -1
    };
    queue.enqueueWriteBuffer(status, CL_TRUE, 0, sizeof(statusInit), statusInit);
    time = t;
    target = t;
    steps = count;
    refused = 0;
    redone = 0;
    lastDt = dtBefore;
    current = 0;
    // The first step's dt needs the wave speeds of the initial state; later steps get them from
    // the update kernel, fused.
    // Lax-Friedrichs steps write the next state's ghosts themselves; the first needs these.
    queue.enqueueNDRangeKernel(fillGhosts[current], cl::NullRange, ghostRange(), cl::NDRange(64));
    // The maxima start from zero (compute_dt resets them after reading).
    queue.enqueueFillBuffer(partialMax, cl_uchar(0), 0, speedPartials() * realSize);
    queue.enqueueNDRangeKernel(waveSpeed[current], cl::NullRange, speedRange, localRange);
    queue.finish();
  }

  cl::NDRange ghostRange() const { return cl::NDRange(roundUp(ghostCells, 64)); }

  // Launches for n steps (fewer steps if a two-step launch is refused, or a target or the step
  // limit is reached).
  void enqueueSteps(int n)
  {
    if (twoSteps())
    {
      // (current is the device's after the next readClock: refused launches skip one.)
      for (int s = 0; s < n; s += 2)
      {
        queue.enqueueNDRangeKernel(updateTwice[current], cl::NullRange, updateRange, updateLocal);
        current = 1 - current;
      }
      return;
    }
    for (int s = 0; s < n; ++s)
    {
      if (params.scheme == Scheme::MusclHllc)
      {
        queue.enqueueNDRangeKernel(fillGhosts[0], cl::NullRange, ghostRange(), cl::NDRange(64));
        queue.enqueueNDRangeKernel(computeDt, cl::NullRange, reduceRange, reduceRange);
        queue.enqueueNDRangeKernel(musclStage[0], cl::NullRange, musclRange, musclLocal);
        queue.enqueueNDRangeKernel(fillGhosts[1], cl::NullRange, ghostRange(), cl::NDRange(64));
        queue.enqueueNDRangeKernel(musclStage[1], cl::NullRange, musclRange, musclLocal);
        continue;
      }
      if (params.scheme == Scheme::MusclHancock)
      {
        queue.enqueueNDRangeKernel(
          fillGhosts[current], cl::NullRange, ghostRange(), cl::NDRange(64));
        queue.enqueueNDRangeKernel(computeDt, cl::NullRange, reduceRange, reduceRange);
        queue.enqueueNDRangeKernel(hancockStep[current], cl::NullRange, musclRange, musclLocal);
        queue.enqueueNDRangeKernel(hancockCapped[current], cl::NullRange, musclRange, musclLocal);
        current = 1 - current;
        continue;
      }
      if (!fusedClock)
        queue.enqueueNDRangeKernel(computeDt, cl::NullRange, reduceRange, reduceRange);
      queue.enqueueNDRangeKernel(update[current], cl::NullRange, updateRange, updateLocal);
      current = 1 - current;
    }
  }

  // The wave-speed partials compute_dt reads: those of a fresh state and those of the steps.
  std::size_t speedPartials() const
  {
    return static_cast<std::size_t>(std::max(speedGroups, musclGroups));
  }

  // About as many steps as the last dt says are left to targetTime (surplus launches are no-ops),
  // within the batch limit.
  int estimatedSteps(double targetTime) const
  {
    int n = 8;
    if (lastDt > 0)
      n = static_cast<int>(std::min<double>(batchLimit, std::ceil((targetTime - time) / lastDt)));
    return std::max(1, std::min(n, batchLimit));
  }

  // Enqueues a batch of steps towards targetTime and returns without waiting for them.
  void startAdvance(double targetTime)
  {
    setTarget(targetTime);
    enqueueSteps(estimatedSteps(targetTime));
    queue.flush();
    advancing = true;
  }

  // Waits for a started advance and reads where it got to (throws if it blew up).
  void settle()
  {
    if (!advancing)
      return;
    advancing = false;
    readClock();
  }

  // The host memory downloadState() returns: page-locked where the driver gives it.
  void ensureHostState()
  {
    if (hostStateData)
      return;
    const std::size_t bytes = 3 * fieldBytes();
    try
    {
      hostState = cl::Buffer(context, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, bytes);
      hostStateData = static_cast<unsigned char*>(
        queue.enqueueMapBuffer(hostState, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes));
    }
    catch (const cl::Error&)
    {
      // No host buffer of that size from this driver: ordinary memory, a slower bus copy.
      hostState = cl::Buffer();
      hostStateFallback.resize(bytes);
      hostStateData = hostStateFallback.data();
    }
  }

  // Whether the device copy of the state and its queue exist (made on the first call where the
  // device memory has room for them beside the simulation's own buffers).
  bool haveFrameState()
  {
    if (frameStateTried)
      return frameState() != nullptr;
    frameStateTried = true;
    const std::uint64_t bytes = 3 * static_cast<std::uint64_t>(fieldBytes());
    const std::uint64_t used = padded() * bytesPerCell(params.precision, perCellManning);
    if (used + bytes > info.globalMemory / 10 * 9)
      return false;
    try
    {
      frameState = cl::Buffer(context, CL_MEM_READ_WRITE, bytes);
      copyQueue = cl::CommandQueue(context, queue.getInfo<CL_QUEUE_DEVICE>());
    }
    catch (const cl::Error&)
    {
      frameState = cl::Buffer();
    }
    return frameState() != nullptr;
  }

  // packState(to, packed) on the main queue, taking the frame's bounds on the way, whose read
  // into rangePartialsHost onQueue then enqueues (done: read). False without fp64: nothing
  // enqueued.
  bool packStateWithRanges(const cl::Buffer& to,
    cl::Event* packed,
    cl::CommandQueue& onQueue,
    cl::Event* read)
  {
    if (!packWithRanges())
      return false;
    if (!rangePartials())
    {
      // A group a row, up to enough groups to fill a GPU.
      const std::size_t group = reduceRange[0];
      const std::size_t groups = std::clamp<std::size_t>(params.ny, 1, 1024);
      rangeGlobal = cl::NDRange(groups * group);
      rangePartialsHost.resize(groups * kRangeValues);
      rangePartials =
        cl::Buffer(context, CL_MEM_READ_WRITE, rangePartialsHost.size() * sizeof(cl_double));
    }
    for (int f = 0; f < 3; ++f)
      packWithRanges.setArg(f, buffer(static_cast<Field>(f)));
    packWithRanges.setArg(3, bed);
    packWithRanges.setArg(4, to);
    packWithRanges.setArg(5, rangePartials);
    std::vector<cl::Event> done(1);
    queue.enqueueNDRangeKernel(
      packWithRanges, cl::NullRange, rangeGlobal, reduceRange, nullptr, &done[0]);
    if (packed)
      *packed = done[0];
    onQueue.enqueueReadBuffer(rangePartials,
      CL_FALSE,
      0,
      rangePartialsHost.size() * sizeof(cl_double),
      rangePartialsHost.data(),
      &done,
      read);
    return true;
  }

  // The bounds from the partials read: every quantity unknown where a group saw a denormal (then
  // VTK computes them when asked).
  FrameRanges frameRangesRead() const
  {
    FrameRanges ranges;
    for (std::size_t g = 0; g < rangePartialsHost.size(); g += kRangeValues)
    {
      const bool denormal = rangePartialsHost[g + 16] != 0;
      for (int q = 0; q < FrameRanges::Count; ++q)
        ranges.widen(static_cast<FrameRanges::Quantity>(q),
          denormal ? std::nan("") : rangePartialsHost[g + 2 * q],
          rangePartialsHost[g + 2 * q + 1]);
    }
    return ranges;
  }

  // Reads the clock and the status; throws if a cell went non-physical. Returns whether the
  // clock is on its target (then time is that target exactly, as the host gave it).
  bool readClock()
  {
    const std::vector<double> c = readReals(ctrl, kCtrlSize);
    cl_int st[kStatusSize];
    queue.enqueueReadBuffer(status, CL_TRUE, 0, sizeof(st), st);
    steps = st[kStatusSteps];
    refused = st[kStatusRefused];
    redone = st[kStatusRedone];
    if (twoSteps())
      current = st[kStatusParity];
    if (c[kCtrlLastDt] > 0)
      lastDt = c[kCtrlLastDt];
    const bool landed = c[kCtrlTime] == c[kCtrlTarget] && c[kCtrlTarget] > 0;
    time = landed ? target : c[kCtrlTime] - c[kCtrlTimeComp];
    // The step is recorded by the next step's dt; none followed the batch's last step.
    if (st[kStatusBadCell] != INT_MAX)
      reportBlowUp(st[kStatusBadCell], st[kStatusBadStep] >= 0 ? st[kStatusBadStep] : steps);
    if (st[kStatusTooFast] >= 0)
      reportTooLongStep(st[kStatusTooFast] + 1, c[kCtrlTooFast]);
    return landed;
  }

  // A fixed dt that would have taken step `step` past the Courant limit at wave speed `speed`:
  // the run stopped before it (choose_dt).
  [[noreturn]] void reportTooLongStep(std::int64_t step, double speed) const
  {
    const double factor = isSecondOrder(params.scheme) ? 2.0 : 1.0;
    const double courant = factor * params.fixedDt * speed / params.dx;
    const double safeDt = 0.5 * params.dx / (factor * speed);
    std::ostringstream s;
    s << "the fixed time step dt = " << formatValue(params.fixedDt) << " s is too long at step "
      << step << " (t = " << formatValue(time) << " s): the fastest wave, " << formatValue(speed)
      << " m/s, on " << formatValue(params.dx) << " m cells gives a Courant number of "
      << formatValue(courant) << ", above " << formatValue(kMaxCourantNumber) << ", the most "
      << schemeName(params.scheme) << " takes (C = " << (factor == 2.0 ? "2 " : "")
      << "dt max(|u| + c, |v| + c) / dx). Use dt <= " << formatValue(safeDt)
      << " s (C = 0.5 at this speed), or 0 for the CFL-adaptive time step.";
    throw Error(s.str());
  }

  [[noreturn]] void reportBlowUp(int cell, int step)
  {
    const int i = cell % params.nx, j = cell / params.nx;
    const std::size_t offset = ((j + kGhost) * pitch() + i + offsetX()) * realSize;
    double values[3];
    const cl::Buffer* fields[3] = { &h[current], &hu[current], &hv[current] };
    for (int f = 0; f < 3; ++f)
    {
      if (params.precision == Precision::Double)
        queue.enqueueReadBuffer(*fields[f], CL_TRUE, offset, realSize, &values[f]);
      else
      {
        cl_float v;
        queue.enqueueReadBuffer(*fields[f], CL_TRUE, offset, realSize, &v);
        values[f] = v;
      }
    }
    std::ostringstream s;
    s << "the simulation blew up at step " << step << " (t = " << time << " s): cell (" << i << ", "
      << j << ") has depth " << values[0] << " m, momentum (" << values[1] << ", " << values[2]
      << ") m^2/s. ";
    // A fixed dt past the Courant limit stops before its step (reportTooLongStep), so only an
    // adaptive dt above 0.5 is a likely cause of its own; otherwise the inputs are.
    if (params.fixedDt <= 0 && params.cfl > 0.5)
      s << "Lower the Courant number (now " << params.cfl << "; 0.5 or less is safe).";
    else
      s << "Every step kept within the Courant limit ("
        << (params.fixedDt > 0 ? "fixed dt " + formatValue(params.fixedDt) + " s"
                               : "C = " + formatValue(params.cfl))
        << "), so look at the inputs near that cell: its depth, velocity, bed and Manning "
           "coefficient, and the boundary values beside it.";
    throw Error(s.str());
  }
};

Simulation::Simulation(const SimulationParameters& params, const InitialState& initial)
  : impl_(new Impl)
{
  Impl& m = *impl_;
  using Clock = std::chrono::steady_clock;
  const auto since = [](Clock::time_point start)
  { return std::chrono::duration<double>(Clock::now() - start).count(); };
  auto start = Clock::now();
  m.perCellManning = !initial.manning.empty();
  m.info = check(params, m.perCellManning);
  m.params = params;
  m.realSize = params.precision == Precision::Double ? sizeof(cl_double) : sizeof(cl_float);
  m.setup.device = since(start);
  start = Clock::now();
  m.shape = resolveLaunchShape(params, m.info);
  m.setup.launch = since(start);
  start = Clock::now();
  if (initial.nx != params.nx || initial.ny != params.ny)
    throw Error("initial state is " + std::to_string(initial.nx) + " x " +
                std::to_string(initial.ny) + " cells but the grid is " + std::to_string(params.nx) +
                " x " + std::to_string(params.ny));
  initial.validate(isSecondOrder(params.scheme));
  if (params.scheme == Scheme::LaxFriedrichs)
    initial.requireFlatBed();
  m.local = localDatum(params, initial);
  m.setup.checks = since(start);
  guarded("setting up the OpenCL device",
    [&]
    {
      start = Clock::now();
      m.build();
      m.setup.build = since(start);
      start = Clock::now();
      m.allocate();
      m.bindKernels();
      m.initialise(initial);
      m.setup.upload = since(start);
    });
}

Simulation::~Simulation() = default;

Simulation::Impl& Simulation::settled() const
{
  Impl& m = *impl_;
  if (m.advancing)
    guarded("advancing the simulation", [&] { m.settle(); });
  return m;
}

namespace
{
// Throws unless targetTime is a time at or after now.
void requireForward(double now, double targetTime)
{
  requireFinite(targetTime, "target time");
  if (targetTime < now)
    throw Error("cannot advance backwards: the simulation is at t = " + formatValue(now) +
                " s, asked for t = " + formatValue(targetTime) + " s");
}
} // namespace

bool Simulation::advanceTo(double targetTime, const ProgressCallback& progress)
{
  Impl& m = settled();
  requireForward(m.time, targetTime);
  if (targetTime == m.time)
    return true;
  return guarded("advancing the simulation",
    [&]
    {
      m.setTarget(targetTime);
      for (;;)
      {
        const int n = m.estimatedSteps(targetTime);
        const auto start = std::chrono::steady_clock::now();
        m.enqueueSteps(n);
        const bool landed = m.readClock();
        const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        // Keep batches near a tenth of a second, so progress and aborts stay responsive.
        if (seconds < 0.05 && n == m.batchLimit)
          m.batchLimit = std::min(m.batchLimit * 2, 1 << 16);
        else if (seconds > 0.2)
          m.batchLimit = std::max(m.batchLimit / 2, 1);
        if (landed)
          return true;
        if (progress && !progress(m.time))
          return false;
      }
    });
}

void Simulation::startAdvance(double targetTime)
{
  Impl& m = settled();
  requireForward(m.time, targetTime);
  if (targetTime > m.time)
    guarded("advancing the simulation", [&] { m.startAdvance(targetTime); });
}

void Simulation::step(int n)
{
  if (n < 0)
    throw Error("number of steps must be >= 0, got " + std::to_string(n));
  Impl& m = settled();
  guarded("stepping the simulation",
    [&]
    {
      const std::int64_t limit = m.steps + n;
      m.setTarget(m.unboundedTarget(), limit);
      // A refused two-step launch takes no step (the next one then takes one): launch until the
      // count is there. A batch with neither a step nor a refusal would repeat for ever.
      while (m.steps < limit)
      {
        const std::int64_t stepsBefore = m.steps, refusedBefore = m.refused;
        m.enqueueSteps(static_cast<int>(limit - m.steps));
        m.readClock();
        if (m.steps == stepsBefore && m.refused == refusedBefore)
          throw Error("the device took no step at t = " + formatValue(m.time) + " s (step " +
                      std::to_string(m.steps) + " of " + std::to_string(limit) + ")");
      }
    });
}

void Simulation::enqueueSteps(int n)
{
  Impl& m = settled();
  guarded("stepping the simulation",
    [&]
    {
      m.setTarget(m.unboundedTarget(), m.steps + n);
      m.enqueueSteps(n);
    });
}

void Simulation::finish()
{
  Impl& m = settled();
  guarded("waiting for the device",
    [&]
    {
      m.queue.finish();
      m.readClock();
    });
}

Snapshot Simulation::snapshot(SnapshotPlace place) const
{
  Snapshot s;
  snapshotInto(s, place);
  return s;
}

void Simulation::snapshotInto(Snapshot& s, SnapshotPlace place) const
{
  Impl& m = settled();
  s.time = m.time;
  s.steps = m.steps;
  s.lastDt = m.lastDt;
  s.nx = m.params.nx;
  s.ny = m.params.ny;
  s.realSize = m.realSize;
  const std::size_t bytes = s.bytes();
  if (place == SnapshotPlace::Device)
  {
    s.data = std::vector<unsigned char>();
    guarded("taking a snapshot in device memory",
      [&]
      {
        // Memory shared with another snapshot, or another simulation's, is not written over.
        if (!s.device || s.device.use_count() != 1 || !m.holds(*s.device) ||
            s.device->buffer.getInfo<CL_MEM_SIZE>() != bytes)
          s.device = std::make_shared<DeviceSnapshotMemory>(
            DeviceSnapshotMemory{ cl::Buffer(m.context, CL_MEM_READ_WRITE, bytes) });
        m.packState(s.device->buffer);
        m.queue.finish();
      });
    return;
  }
  s.device.reset();
  resizeOnHugePages(s.data, bytes);
  guarded("taking a snapshot", [&] { m.readState(s.data.data()); });
}

StateView Simulation::downloadState() const
{
  Impl& m = settled();
  StateView v{ m.time, m.steps, m.params.nx, m.params.ny, m.realSize, nullptr, {} };
  guarded("downloading the state",
    [&]
    {
      m.ensureHostState();
      m.readState(m.hostStateData);
      v.data = m.hostStateData;
    });
  return v;
}

StateView Simulation::downloadStateThenAdvance(double targetTime, const StateConsumer& consume)
{
  Impl& m = settled();
  requireForward(m.time, targetTime);
  StateView v{ m.time, m.steps, m.params.nx, m.params.ny, m.realSize, nullptr, {} };
  const auto allRows = [&]
  {
    if (consume)
      consume(v, [](int) {});
    return v;
  };
  if (targetTime == m.time)
  {
    v = downloadState();
    return allRows();
  }
  // The rows in parts of about 8 MiB, at most 16 (each part is three reads on the second queue,
  // one a field): the first part's bus copy is the host's only wait.
  const std::size_t rowBytes = 3 * static_cast<std::size_t>(v.nx) * v.realSize;
  const int parts = consume ? static_cast<int>(std::clamp<std::size_t>(
                                rowBytes * static_cast<std::size_t>(v.ny) / (8u << 20), 1, 16))
                            : 1;
  std::vector<cl::Event> partRead(static_cast<std::size_t>(parts));
  cl::Event rangesRead;
  bool haveRanges = false;
  const auto partRow = [&](int part)
  { return static_cast<int>(static_cast<std::int64_t>(v.ny) * part / parts); };
  const bool overlapped = guarded("downloading the state",
    [&]
    {
      m.ensureHostState();
      if (!m.haveFrameState())
      {
        m.readState(m.hostStateData);
        m.startAdvance(targetTime);
        return false;
      }
      // The copy on the device takes a fraction of a millisecond; the bus copy then overlaps
      // the steps, on the other queue.
      const std::size_t fieldBytes = v.fieldBytes();
      // On a GPU the frame's bounds on the way (one pass over the state, read on the second
      // queue before the rows); a CPU device gathers them cheaper in the host's pass over the
      // rows, or where the device has no fp64.
      std::vector<cl::Event> copied(1);
      haveRanges = m.wantsDeviceRanges() &&
                   m.packStateWithRanges(m.frameState, &copied[0], m.copyQueue, &rangesRead);
      if (!haveRanges)
        m.packState(m.frameState, &copied[0]);
      for (int part = 0; part < parts; ++part)
      {
        const std::size_t begin = static_cast<std::size_t>(partRow(part)) * v.nx * v.realSize,
                          end = static_cast<std::size_t>(partRow(part + 1)) * v.nx * v.realSize;
        for (std::size_t f = 0; f < 3; ++f)
          m.copyQueue.enqueueReadBuffer(m.frameState,
            CL_FALSE,
            f * fieldBytes + begin,
            end - begin,
            m.hostStateData + f * fieldBytes + begin,
            &copied,
            f == 2 ? &partRead[static_cast<std::size_t>(part)] : nullptr);
      }
      m.startAdvance(targetTime); // flushes the copies too
      m.copyQueue.flush();
      return true;
    });
  v.data = m.hostStateData;
  if (!overlapped)
    return allRows();
  // Whatever happens to the rows, no read may still be writing into the host state when this
  // returns (the next download reuses it).
  struct FinishReads
  {
    cl::CommandQueue& queue;
    ~FinishReads()
    {
      try
      {
        queue.finish();
      }
      catch (...) // an error already on its way out, or one finish() reports again
      {
      }
    }
  } finishReads{ m.copyQueue };
  if (haveRanges)
    v.ranges = [&m, rangesRead]() mutable
    {
      return guarded("computing the frame's ranges",
        [&]
        {
          rangesRead.wait();
          return std::optional<FrameRanges>(m.frameRangesRead());
        });
    };
  const RowsWait waitForRows = [&](int rowEnd)
  {
    // The part that holds row rowEnd - 1 (reads complete in order: the earlier parts are in).
    int part = 0;
    while (part + 1 < parts && partRow(part + 1) < rowEnd)
      ++part;
    guarded("downloading the state", [&] { partRead[static_cast<std::size_t>(part)].wait(); });
  };
  if (consume)
    consume(v, waitForRows);
  waitForRows(v.ny);
  return v;
}

void Simulation::restore(const Snapshot& snapshot)
{
  Impl& m = *impl_;
  if (snapshot.nx != m.params.nx || snapshot.ny != m.params.ny || snapshot.realSize != m.realSize ||
      (!snapshot.onDevice() && snapshot.data.size() != stateBytes()))
    throw Error("cannot restore a " + std::to_string(snapshot.nx) + " x " +
                std::to_string(snapshot.ny) + " snapshot into a " + std::to_string(m.params.nx) +
                " x " + std::to_string(m.params.ny) + " simulation");
  guarded("restoring a snapshot",
    [&]
    {
      if (snapshot.onDevice() && !m.holds(*snapshot.device))
        throw Error("cannot restore a snapshot kept in another simulation's device memory");
      // A started advance is dropped, not settled: the restored state replaces whatever it did.
      m.queue.finish();
      m.advancing = false;
      m.clearState();
      if (snapshot.onDevice())
        m.unpackState(snapshot.device->buffer);
      else
        m.writeState(snapshot.data.data());
      m.startFrom(snapshot.time, snapshot.steps, snapshot.lastDt);
    });
}

std::uint64_t Simulation::stateBytes() const
{
  return 3 * static_cast<std::uint64_t>(impl_->fieldBytes());
}

bool Simulation::snapshotsFitOnDevice(std::uint64_t bytes) const
{
  const Impl& m = *impl_;
  if (m.info.type != "GPU")
    return false;
  cl_bool unified = CL_TRUE;
  const cl::Device device = m.queue.getInfo<CL_QUEUE_DEVICE>();
  if (clGetDeviceInfo(
        device(), CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof(unified), &unified, nullptr) !=
        CL_SUCCESS ||
      unified)
    return false;
  const std::uint64_t used =
    m.padded() * bytesPerCell(m.params.precision, m.perCellManning) + stateBytes();
  return used + bytes <= m.info.globalMemory / 2;
}

double Simulation::time() const
{
  return settled().time;
}

std::int64_t Simulation::refusedLaunches() const
{
  return settled().refused;
}

std::int64_t Simulation::redoneSteps() const
{
  return settled().redone;
}

std::int64_t Simulation::steps() const
{
  return settled().steps;
}

double Simulation::lastDt() const
{
  return settled().lastDt;
}

std::optional<FrameRanges> Simulation::frameRanges() const
{
  Impl& m = settled();
  return guarded("computing the frame's ranges",
    [&]() -> std::optional<FrameRanges>
    {
      cl::Event read;
      if (!m.haveFrameState() || !m.packStateWithRanges(m.frameState, nullptr, m.queue, &read))
        return std::nullopt;
      read.wait();
      return m.frameRangesRead();
    });
}

Diagnostics Simulation::diagnostics() const
{
  Impl& m = settled();
  return guarded("computing diagnostics",
    [&]
    {
      m.queue.enqueueNDRangeKernel(
        m.diagPartials[m.current], cl::NullRange, m.globalRange, m.localRange);
      m.queue.enqueueNDRangeKernel(m.diagFinal, cl::NullRange, m.reduceRange, m.reduceRange);
      const std::vector<double> r = m.readReals(m.diagResult, 3);
      Diagnostics d;
      d.mass = r[0] * m.params.dx * m.params.dx;
      d.maxDepth = r[1];
      d.maxSpeed = r[2];
      return d;
    });
}

void Simulation::download(Field field, double* out) const
{
  const Impl& m = settled();
  guarded("downloading a field", [&] { m.downloadField(field, out); });
}

void Simulation::download(Field field, float* out) const
{
  const Impl& m = settled();
  guarded("downloading a field", [&] { m.downloadField(field, out); });
}

const SimulationParameters& Simulation::parameters() const
{
  return impl_->params;
}

const DeviceInfo& Simulation::device() const
{
  return impl_->info;
}

namespace
{
// Host memory a run may need beyond what it holds per cell: building the kernels (the compiler
// of a CPU device runs in this process).
constexpr std::uint64_t kBuildReserve = 512ull << 20;

// Refuses a run whose host memory, per part (alsoOnHost plus the engine's), passes what this
// process can count on; the message lists the parts and the largest square grid that fits.
void checkHostMemory(const SimulationParameters& params,
  bool perCellManning,
  const DeviceInfo& info,
  const std::vector<HostShare>& alsoOnHost)
{
  const std::uint64_t available = availableHostMemory();
  if (available == 0)
    return; // unknown: nothing to refuse on
  const std::uint64_t real = params.precision == Precision::Double ? 8 : 4;
  // The initial state (h, hu, hv, bed and the roughness, in fp64) and one field converted for
  // the upload exist only while the simulation is made, before the frames and checkpoints.
  const std::uint64_t whileMade = (perCellManning ? 40 : 32) + real;
  std::vector<HostShare> parts;
  if (info.type == "CPU") // a CPU device's buffers are host memory: state, bed, copy for frames
    parts.push_back(
      { "device buffers", Simulation::bytesPerCell(params.precision, perCellManning) + 3 * real });
  parts.push_back({ "download copy", 3 * real });
  parts.insert(parts.end(), alsoOnHost.begin(), alsoOnHost.end());
  std::uint64_t running = 0, device = 0;
  for (const HostShare& part : parts)
    running += part.bytesPerCell;
  if (info.type == "CPU")
    device = parts.front().bytesPerCell;
  const std::uint64_t perCell = std::max(running, device + whileMade);
  const std::uint64_t cells = static_cast<std::uint64_t>(params.nx) * params.ny;
  const std::uint64_t needed = cells * perCell + kBuildReserve;
  if (needed <= available)
    return;
  std::ostringstream s;
  s << "grid " << params.nx << " x " << params.ny << " needs " << gib(needed) << " of host memory"
    << (perCellManning ? " with a Manning coefficient per cell" : "") << " (";
  if (perCell == running)
    for (const HostShare& part : parts)
      s << part.what << " " << gib(cells * part.bytesPerCell) << ", ";
  else
    s << "while the initial state is uploaded, " << gib(cells * perCell) << ", ";
  const auto fits = static_cast<std::uint64_t>(
    std::sqrt(static_cast<double>(available > kBuildReserve ? available - kBuildReserve : 0) /
              static_cast<double>(perCell)));
  s << "building the kernels " << gib(kBuildReserve) << ") but this process can count on "
    << gib(available) << ": use fewer cells (about " << fits << " x " << fits
    << " fit), or close other programs";
  throw Error(s.str());
}
} // namespace

DeviceInfo Simulation::check(const SimulationParameters& params,
  bool perCellManning,
  const std::vector<HostShare>& alsoOnHost)
{
  params.validate();
  const DeviceInfo info = selectDevice(params.device);
  if (params.precision == Precision::Double)
    requireDouble(info);
  const std::uint64_t real = params.precision == Precision::Double ? 8 : 4;
  const std::uint64_t cells = paddedCells(params.nx, params.ny, real);
  const std::uint64_t bytes = cells * bytesPerCell(params.precision, perCellManning);
  const std::uint64_t oneBuffer = cells * real;
  const std::string grid = std::to_string(params.nx) + " x " + std::to_string(params.ny);
  if (cells > static_cast<std::uint64_t>(INT_MAX))
    throw Error("grid " + grid + " has too many cells for 32-bit indexing (at most " +
                std::to_string(INT_MAX) + " including ghost layers)");
  if (bytes > info.globalMemory)
    throw Error("grid " + grid + " needs " + gib(bytes) + " of device memory" +
                (perCellManning ? " (with a Manning coefficient per cell)" : "") + " but '" +
                info.name + "' has " + gib(info.globalMemory) +
                ": use fewer cells or single precision");
  if (oneBuffer > info.maxAllocation)
    throw Error("grid " + grid + " needs buffers of " + gib(oneBuffer) + " but '" + info.name +
                "' allocates at most " + gib(info.maxAllocation) + " at once: use fewer cells");
  checkHostMemory(params, perCellManning, info, alsoOnHost);
  return info;
}

const LaunchShape& Simulation::launchShape() const
{
  return impl_->shape;
}

const std::string& Simulation::buildLog() const
{
  return impl_->buildLog;
}

const SetupSeconds& Simulation::setupSeconds() const
{
  return impl_->setup;
}

double Simulation::copyBandwidth() const
{
  Impl& m = *impl_;
  return guarded("measuring the copy bandwidth",
    [&]
    {
      const std::size_t bytes = m.padded() * m.realSize * 3; // one copy of h, hu, hv
      cl::Buffer from(m.context, CL_MEM_READ_WRITE, bytes), to(m.context, CL_MEM_READ_WRITE, bytes);
      m.queue.enqueueFillBuffer(from, cl_uchar(1), 0, bytes);
      m.queue.enqueueCopyBuffer(from, to, 0, 0, bytes); // warm-up
      m.queue.finish();
      const int repetitions = 20;
      const auto start = std::chrono::steady_clock::now();
      for (int k = 0; k < repetitions; ++k)
        m.queue.enqueueCopyBuffer(from, to, 0, 0, bytes);
      m.queue.finish();
      const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      return 2.0 * bytes * repetitions / seconds;
    });
}

std::uint64_t Simulation::bytesMovedPerCell(const SimulationParameters& params)
{
  const std::uint64_t real = params.precision == Precision::Double ? 8 : 4;
  const std::uint64_t fields = params.scheme == Scheme::MusclHllc      ? 17
                               : params.scheme == Scheme::MusclHancock ? 7
                                                                       : 6;
  return fields * real;
}

std::uint64_t Simulation::largestSquareGrid(Precision precision, const DeviceInfo& device)
{
  const double byMemory =
    std::sqrt(static_cast<double>(device.globalMemory) / bytesPerCell(precision));
  const double byIndex = std::sqrt(static_cast<double>(INT_MAX));
  // Less the ghost layers and the row alignment (at most 2 x 128 bytes a row).
  const std::uint64_t real = precision == Precision::Double ? 8 : 4;
  return static_cast<std::uint64_t>(std::min(byMemory, byIndex)) - 2 * rowOffsetCells(real);
}

std::uint64_t Simulation::bytesPerCell(Precision precision, bool perCellManning)
{
  const std::uint64_t real = precision == Precision::Double ? 8 : 4;
  // 2 x (h, hu, hv) ping-pong + bed (+ the Manning field); the partial-maximum buffers add < 1 %
  // and are ignored.
  return (perCellManning ? 8 : 7) * real;
}
} // namespace swe
