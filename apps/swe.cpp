// swe: the command-line face of the engine. devices | run | bench | tune | validate.
#include "AnalyticSolutions.h"
#include "Devices.h"
#include "Error.h"
#include "InitialState.h"
#include "LaunchTuner.h"
#include "Parameters.h"
#include "ReferenceSolver.h"
#include "Simulation.h"
#ifdef SWE_WITH_VTK
#include "FrameImage.h"
#include "ImageInitialState.h"
#include "VtiSeriesWriter.h"

#include <vtkCommand.h>
#include <vtkErrorCode.h>
#include <vtkExecutive.h>
#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkXMLImageDataReader.h>
#endif

#include <CLI/CLI.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cmath>
#include <limits>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

namespace
{
using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start)
{
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The SETUP line: a run's fixed cost beyond its steps, part by part, and its share of the run
// (PERFORMANCE.md). state: the initial state built on the host; then the simulation's own parts.
void printSetup(double state,
  const swe::SetupSeconds& setup,
  const std::vector<std::pair<const char*, double>>& more,
  const std::string& steps,
  double stepSeconds,
  const std::string& run)
{
  std::vector<std::pair<const char*, double>> parts{ { "state", state },
    { "device", setup.device },
    { "launch", setup.launch },
    { "checks", setup.checks },
    { "build", setup.build },
    { "upload", setup.upload } };
  parts.insert(parts.end(), more.begin(), more.end());
  double total = 0;
  std::string text;
  for (const auto& part : parts)
  {
    total += part.second;
    char item[64];
    std::snprintf(
      item, sizeof(item), "%s%s %.3f", text.empty() ? "" : ", ", part.first, part.second);
    text += item;
  }
  std::printf("SETUP total %.3f s: %s; %s %.3f s: the fixed cost is %.1f %% of %s\n",
    total,
    text.c_str(),
    steps.c_str(),
    stepSeconds,
    100 * total / (total + stepSeconds),
    run.c_str());
}

struct CommonOptions
{
  swe::SimulationParameters params;
  std::string precision = "single";
  std::string scenario = "dambreak";
  std::string scheme = "lax-friedrichs";
  std::vector<std::string> boundaries;

  void add(CLI::App* app)
  {
    app->add_option("--nx", params.nx, "cells along x")->capture_default_str();
    app->add_option("--ny", params.ny, "cells along y")->capture_default_str();
    app
      ->add_option(
        "--device", params.device, "auto, an index from 'swe devices', or part of a name")
      ->capture_default_str();
    app->add_option("--precision", precision, "single or double")->capture_default_str();
    app->add_option("--scheme", scheme, "lax-friedrichs, muscl-hllc or muscl-hancock")
      ->capture_default_str();
    app->add_option("--boundary",
      boundaries,
      "SIDE=TYPE[:VALUE], repeatable; sides west, east, south, north; types wall (default), "
      "open, inflow:Q (m^2/s into the domain), level:ETA (water surface, m)");
    app
      ->add_option("--launch",
        params.launch,
        "step kernel launch: auto (tuned once, cached), default, GXxGYxROWS such as 128x2x8, or "
        "that with s2 appended (two steps a launch; Lax-Friedrichs)")
      ->capture_default_str();
    app->add_option("--build-options", params.buildOptions, "extra OpenCL build options");
  }

  swe::SimulationParameters resolve()
  {
    params.precision = swe::precisionFromName(precision);
    params.scheme = swe::schemeFromName(scheme);
    for (const auto& b : boundaries)
      swe::parseBoundary(b, params);
    params.validate();
    return params;
  }
};

int listDevices()
{
  const auto devices = swe::listDevices();
  if (devices.empty())
  {
    const std::string pocl = swe::poclCacheProblem();
    std::cout << "no OpenCL device found" << (pocl.empty() ? "" : ": " + pocl) << "\n";
  }
  for (const auto& d : devices)
    std::cout << d.summary() << "\n";
  return 0;
}

struct InputOptions
{
  std::string file; // .vti with the terrain; empty: a scenario
  std::string bed = "Bed", depth, surface, velocity, manning;
  double waterLevel = 0;
  std::array<double, 3> origin{ 0, 0, 0 }; // set from --input: where the image's cells start
};

#ifdef SWE_WITH_VTK
// Keeps the messages of VTK's error events (which VTK would otherwise print with a time stamp and
// the object's address), without the "vtkClass (0x...): " prefix.
class VtkErrorCollector : public vtkCommand
{
public:
  static VtkErrorCollector* New() { return new VtkErrorCollector; }
  void Execute(vtkObject*, unsigned long, void* callData) override
  {
    std::string message = callData ? static_cast<const char*>(callData) : "unknown error";
    const std::size_t prefix = message.find("): ");
    if (prefix != std::string::npos)
      message.erase(0, prefix + 3);
    while (!message.empty() && std::isspace(static_cast<unsigned char>(message.back())))
      message.pop_back();
    Messages.push_back(message);
  }
  std::vector<std::string> Messages;
};
#endif

// The grid and the initial state: from --input, or the scenario on the --nx/--ny/--dx grid.
swe::InitialState initialState(CommonOptions& options,
  InputOptions& input,
  swe::SimulationParameters& params)
{
  if (input.file.empty())
    return swe::makeScenario(swe::scenarioFromName(options.scenario), params);
#ifdef SWE_WITH_VTK
  vtkNew<vtkXMLImageDataReader> reader;
  if (!reader->CanReadFile(input.file.c_str()))
    throw swe::Error("cannot read '" + input.file + "' as a VTK XML image (.vti)");
  // A truncated or damaged file leaves an empty image, which would be blamed for its shape: the
  // reader's, its XML parser's and the pipeline's errors are collected instead of printed, and
  // the first names the cause.
  vtkNew<VtkErrorCollector> errors;
  reader->AddObserver(vtkCommand::ErrorEvent, errors);
  reader->SetParserErrorObserver(errors);
  reader->GetExecutive()->AddObserver(vtkCommand::ErrorEvent, errors);
  reader->SetFileName(input.file.c_str());
  reader->Update();
  if (!errors->Messages.empty() || reader->GetErrorCode() != vtkErrorCode::NoError)
    throw swe::Error("cannot read '" + input.file + "': " +
                     (errors->Messages.empty()
                         ? std::string(vtkErrorCode::GetStringFromErrorCode(reader->GetErrorCode()))
                         : errors->Messages.front()) +
                     " (the file may be truncated or damaged)");
  vtkImageData* image = reader->GetOutput();
  swe::ImageArrays arrays;
  arrays.bed = input.bed;
  arrays.depth = input.depth;
  arrays.freeSurface = input.surface;
  arrays.velocity = input.velocity;
  arrays.manning = input.manning;
  arrays.initialWaterLevel = input.waterLevel;
  swe::InitialState state = swe::imageInitialState(image, arrays);
  swe::imageGrid(image->GetExtent(),
    image->GetSpacing(),
    image->GetOrigin(),
    params.nx,
    params.ny,
    params.dx,
    input.origin.data());
  params.validate();
  return state;
#else
  throw swe::Error("--input needs VTK, and this swe was built without ParaView/VTK");
#endif
}

int run(CommonOptions& options,
  InputOptions& input,
  double tEnd,
  double outputEvery,
  const std::string& outDir,
  const std::vector<std::string>& arrays)
{
  swe::requireFinite(tEnd, "end time");
  swe::requireFinite(outputEvery, "output interval");
  if (tEnd < 0)
    throw swe::Error("end time must be >= 0 s, got " + swe::formatValue(tEnd));
  if (outputEvery < 0)
    throw swe::Error("output interval must be > 0 s (or 0 for only the end), got " +
                     swe::formatValue(outputEvery));
  // The plugin's bound (kMaxOutputTimes in filters/vtkShallowWaterBase.cxx): a million outputs
  // is already a file every step of a long run; far beyond, the count overflows the loop's long
  // and the run takes no step at all, and past 2^24 outputs fp32 clocks cannot tell one output
  // time from the next.
  constexpr double maxOutputTimes = 1e6;
  if (outputEvery > 0 && tEnd / outputEvery > maxOutputTimes)
    throw swe::Error("--t-end " + swe::formatValue(tEnd) + " / --output-every " +
                     swe::formatValue(outputEvery) +
                     " gives more than a million output times: raise --output-every to at least " +
                     swe::formatValue(tEnd / maxOutputTimes) + " s (or 0 for only the end)");
  swe::SimulationParameters params = options.resolve();
  // The scenario's grid checked before its initial state is built (an input's, once read), with
  // the frames --out keeps: too large a grid is refused with the numbers.
  std::vector<swe::HostShare> frames;
#ifdef SWE_WITH_VTK
  if (!outDir.empty())
    frames.push_back({ "frames",
      swe::frameArrayBytesPerCell(params.precision == swe::Precision::Double ? 8 : 4) });
#endif
#ifdef SWE_WITH_VTK
  const swe::FrameArraySelection selection = swe::frameArraySelection(arrays); // (checked first)
#else
  if (!outDir.empty() || !arrays.empty())
    throw swe::Error("--out and --arrays need VTK, and this swe was built without ParaView/VTK");
#endif
  auto start = Clock::now();
  if (input.file.empty())
    swe::Simulation::check(params, false, frames);
  const double checkSeconds = secondsSince(start);
  // The initial state's host copy lives only while the simulation is made (the memory check
  // counts it only then).
  start = Clock::now();
  const std::unique_ptr<swe::Simulation> made = [&]
  {
    const swe::InitialState initial = initialState(options, input, params);
    return std::make_unique<swe::Simulation>(params, initial);
  }();
  swe::Simulation& simulation = *made;
  swe::SetupSeconds setup = simulation.setupSeconds();
  const double stateSeconds = secondsSince(start) - setup.total(); // built, and released
  setup.device += checkSeconds;
  const std::string what = input.file.empty() ? options.scenario : input.file;
  start = Clock::now();
  const double mass0 = simulation.diagnostics().mass;
  const double firstRead = secondsSince(start);
  std::cerr << "swe: " << what << ", " << swe::schemeName(params.scheme) << ", " << params.nx
            << " x " << params.ny << " cells, dx = " << params.dx << " m, "
            << swe::precisionName(params.precision) << " precision on " << simulation.device().name
            << "\n";
  const bool terminal = isatty(STDERR_FILENO);
  const double interval = outputEvery > 0 ? outputEvery : tEnd;
  const long outputs = interval > 0 ? static_cast<long>(std::ceil(tEnd / interval - 1e-9)) : 0;
  const auto outputTime = [&](long k) { return std::min(tEnd, k * interval); };
#ifdef SWE_WITH_VTK
  std::unique_ptr<swe::VtiSeriesWriter> writer;
  if (!outDir.empty())
    writer = std::make_unique<swe::VtiSeriesWriter>(outDir, "swe", input.origin, selection);
  // Output k: the device takes the steps to the next output while this one is written.
  const auto write = [&](long k)
  {
    if (writer)
      writer->write(simulation, k < outputs ? outputTime(k + 1) : simulation.time());
  };
  write(0);
#endif
  for (long k = 1; k <= outputs; ++k)
  {
    simulation.advanceTo(outputTime(k),
      [&](double t)
      {
        if (terminal)
          std::fprintf(stderr,
            "\r  t = %10.4f / %g s  (%lld steps)   ",
            t,
            tEnd,
            static_cast<long long>(simulation.steps()));
        return true;
      });
    const swe::Diagnostics d = simulation.diagnostics();
    std::fprintf(stderr,
      "%s  t = %10.4f s  steps = %lld  mass = %.10g m^3  max depth = %.4g m  "
      "max speed = %.4g m/s\n",
      terminal ? "\r" : "",
      simulation.time(),
      static_cast<long long>(simulation.steps()),
      d.mass,
      d.maxDepth,
      d.maxSpeed);
#ifdef SWE_WITH_VTK
    write(k);
#endif
  }
  // (As before the SETUP line: the simulation's construction, the first read and the outputs.)
  const double seconds = simulation.setupSeconds().total() + secondsSince(start);
  start = Clock::now();
  const double mass = simulation.diagnostics().mass;
  const double lastRead = secondsSince(start);
  if (simulation.launchShape().steps == 2 && params.fixedDt <= 0)
    std::cerr
      << "swe: " << simulation.refusedLaunches()
      << " two-step launches refused (each cost two launches without a step; PERFORMANCE.md)\n";
  if (params.scheme == swe::Scheme::MusclHancock)
    std::cerr << "swe: " << simulation.redoneSteps()
              << " steps taken again with the outflow cap (a depth went below zero without it)\n";
#ifdef SWE_WITH_VTK
  if (writer)
    std::cerr << "swe: wrote " << writer->seriesPath() << "\n";
#endif
  printSetup(stateSeconds,
    setup,
    { { "first read", firstRead }, { "last read", lastRead } },
    std::to_string(simulation.steps()) + " steps",
    seconds - simulation.setupSeconds().total() - firstRead,
    "this run");
  std::printf("RESULT steps=%lld t=%.17g mass=%.17g mass_rel_drift=%.3e seconds=%.3f\n",
    static_cast<long long>(simulation.steps()),
    simulation.time(),
    mass,
    std::fabs(mass - mass0) / mass0,
    seconds);
  return 0;
}

template<class Real>
double twinCellsPerSecond(const swe::SimulationParameters& params, double budgetSeconds)
{
  swe::ReferenceSolver<Real> twin(params, swe::makeScenario(swe::Scenario::DamBreak, params));
  twin.step(); // warm-up: touches every page
  int steps = 0;
  const auto start = Clock::now();
  double seconds = 0;
  while (steps < 3 || seconds < budgetSeconds)
  {
    twin.step();
    ++steps;
    seconds = secondsSince(start);
  }
  return static_cast<double>(params.nx) * params.ny * steps / seconds;
}

int bench(CommonOptions& options, int steps, bool baseline)
{
  if (steps <= 0)
    throw swe::Error("--steps must be > 0, got " + std::to_string(steps));
  const swe::SimulationParameters params = options.resolve();
  // The dam break keeps the state physical for the whole benchmark. (Its host copy only lives
  // while the simulation is made.)
  double stateSeconds = 0;
  const std::unique_ptr<swe::Simulation> made = [&]
  {
    const auto start = Clock::now();
    const swe::InitialState initial = swe::makeScenario(swe::Scenario::DamBreak, params);
    stateSeconds = secondsSince(start);
    return std::make_unique<swe::Simulation>(params, initial);
  }();
  swe::Simulation& simulation = *made;
  if (!simulation.buildLog().empty())
    std::cerr << "swe bench: the kernel compiler said:\n" << simulation.buildLog() << "\n";
  // The first read: the state at t = 0, as a first frame takes it (the first downloadState also
  // allocates its host memory).
  auto start = Clock::now();
  simulation.downloadState();
  const double firstRead = secondsSince(start);
  const int warmup = std::max(1, std::min(steps / 10, 50));
  start = Clock::now();
  simulation.enqueueSteps(warmup);
  simulation.finish();
  const double warmupSeconds = secondsSince(start);
  const std::int64_t warmupTaken = simulation.steps();
  const std::int64_t stepsBefore = simulation.steps(), refusedBefore = simulation.refusedLaunches(),
                     redoneBefore = simulation.redoneSteps();
  start = Clock::now();
  simulation.enqueueSteps(steps);
  simulation.finish();
  const double seconds = secondsSince(start);
  const double cells = static_cast<double>(params.nx) * params.ny;
  // The steps taken: fewer than asked when two-step launches were refused (adaptive dt).
  const std::int64_t taken = simulation.steps() - stepsBefore;
  if (taken <= 0)
    throw swe::Error("the benchmark took no steps (the state may have stopped the clock)");
  const double rate = cells * static_cast<double>(taken) / seconds;
  {
    // The last read: the state after the steps, into the memory the first read allocated.
    start = Clock::now();
    simulation.downloadState();
    const double lastRead = secondsSince(start);
    // The warm-up's time beyond as many steps at the timed rate: first launches (PoCL compiles
    // each kernel for its work-group size then; GPU drivers load the code).
    const double perStep = seconds / static_cast<double>(taken);
    const double firstSteps =
      std::max(0.0, warmupSeconds - perStep * static_cast<double>(warmupTaken));
    printSetup(stateSeconds,
      simulation.setupSeconds(),
      { { "first steps", firstSteps }, { "first read", firstRead }, { "last read", lastRead } },
      "20 steps",
      20 * perStep,
      "a 20-step run");
  }
  // The ceiling, measured in the same run: the device's own buffer copy, as many bytes as the
  // state, and the bytes a step must move at least (the scheme's reads and writes per cell).
  const double copy = simulation.copyBandwidth();
  const double bytesPerCell = static_cast<double>(swe::Simulation::bytesMovedPerCell(params));
  const double achieved = rate * bytesPerCell;
  const std::uint64_t largest =
    swe::Simulation::largestSquareGrid(params.precision, simulation.device());
  if (params.launch == "auto" && swe::cachedLaunchShapeIsPartial(params, simulation.device()))
    std::cerr << "swe bench: the launch shape comes from a tuning cut short at its time limit; "
                 "swe tune times every shape\n";
  std::cerr << "swe bench: " << params.nx << " x " << params.ny << ", " << taken << " steps ("
            << simulation.refusedLaunches() - refusedBefore << " launches refused, "
            << simulation.redoneSteps() - redoneBefore << " steps redone with the outflow cap), "
            << swe::schemeName(params.scheme) << ", " << swe::precisionName(params.precision)
            << ", " << (params.fixedDt > 0 ? "fixed" : "adaptive") << " dt, launch "
            << simulation.launchShape().text() << ", on " << simulation.device().name << "\n"
            << "swe bench: " << bytesPerCell << " B/cell/step at least; device copy " << copy / 1e9
            << " GB/s, so at most " << copy / bytesPerCell / 1e9
            << " Gcell/s; largest square grid that fits: " << largest << "^2\n";
  {
    // The engine's share of a frame's output: h, hu, hv to the host, against 100 steps. As the
    // plugin takes them (downloadState: the first call allocates its host memory, later frames
    // reuse it), and field by field into ordinary memory (download), for comparison.
    const double first = firstRead; // (SETUP's)
    auto start = Clock::now();
    simulation.downloadState();
    const double state = secondsSince(start);
    const std::size_t n = static_cast<std::size_t>(params.nx) * params.ny;
    std::vector<float> single(params.precision == swe::Precision::Single ? n : 0);
    std::vector<double> dual(params.precision == swe::Precision::Double ? n : 0);
    start = Clock::now();
    for (swe::Field f : { swe::Field::Depth, swe::Field::MomentumX, swe::Field::MomentumY })
      if (single.empty())
        simulation.download(f, dual.data());
      else
        simulation.download(f, single.data());
    const double fields = secondsSince(start), hundred = 100.0 * seconds / taken;
    std::printf("FRAME download_seconds=%.6f first_download_seconds=%.6f "
                "fields_download_seconds=%.6f steps100_seconds=%.6f download_fraction=%.4f\n",
      state,
      first,
      fields,
      hundred,
      state / (state + hundred));
  }
  {
    // Frames of about 100 steps each, as the plugin takes them during Play, from one snapshot:
    // advancing alone; advancing then downloading; and downloading while the next frame's steps
    // run (downloadStateThenAdvance, what the plugin does on a GPU). The overheads are each
    // loop's time beyond advancing alone.
    const swe::Snapshot start = simulation.snapshot();
    const double interval = 100.0 * (params.fixedDt > 0 ? params.fixedDt : simulation.lastDt());
    const int frames = 5;
    enum class Frame
    {
      Alone,
      Download,
      DownloadAhead
    };
    const auto loop = [&](Frame frame)
    {
      simulation.restore(start);
      const auto begin = Clock::now();
      for (int k = 1; k <= frames; ++k)
      {
        simulation.advanceTo(start.time + k * interval);
        if (frame == Frame::Download)
          simulation.downloadState();
        else if (frame == Frame::DownloadAhead) // the last one too, as in Play: it overlaps 6
          simulation.downloadStateThenAdvance(start.time + (k + 1) * interval);
      }
      return secondsSince(begin) / frames;
    };
    loop(Frame::DownloadAhead); // warm-up: the device copy and second queue are made on first use
    const double alone = loop(Frame::Alone);
    const std::int64_t redone = simulation.redoneSteps();
    const double plain = loop(Frame::Download), ahead = loop(Frame::DownloadAhead);
    std::printf("FRAMES frame_seconds=%.6f download_frame_seconds=%.6f "
                "ahead_frame_seconds=%.6f download_overhead=%.4f ahead_overhead=%.4f "
                "steps_redone=%lld\n",
      alone,
      plain,
      ahead,
      1 - alone / plain,
      1 - alone / ahead,
      static_cast<long long>(redone));
  }
  {
    // A checkpoint as the timeline takes one during Play: into fresh host memory, into recycled
    // host memory, and in device memory, fresh and recycled (what a GPU's timeline uses); then
    // going back to each. The state is the same afterwards.
    swe::Snapshot host, device;
    const auto timed = [&](auto&& what)
    {
      const auto start = Clock::now();
      what();
      simulation.finish();
      return secondsSince(start);
    };
    const auto take = [&](swe::Snapshot& s, swe::SnapshotPlace place)
    { return timed([&] { simulation.snapshotInto(s, place); }); };
    const double hostFresh = take(host, swe::SnapshotPlace::Host),
                 hostRecycled = take(host, swe::SnapshotPlace::Host),
                 deviceFresh = take(device, swe::SnapshotPlace::Device),
                 deviceRecycled = take(device, swe::SnapshotPlace::Device),
                 restoreHost = timed([&] { simulation.restore(host); }),
                 restoreDevice = timed([&] { simulation.restore(device); });
    std::printf("CHECKPOINT host_fresh_seconds=%.6f host_seconds=%.6f device_fresh_seconds=%.6f "
                "device_seconds=%.6f restore_host_seconds=%.6f restore_device_seconds=%.6f\n",
      hostFresh,
      hostRecycled,
      deviceFresh,
      deviceRecycled,
      restoreHost,
      restoreDevice);
    // The state packed with the frame's bounds taken on the way (what a GPU's frame does in
    // place of the packed copy) and the bounds' read, the fastest of five (the kernel is in the
    // program: nothing is built).
    double ranges = std::numeric_limits<double>::infinity();
    bool computed = true;
    for (int k = 0; k < 5; ++k)
      ranges = std::min(ranges, timed([&] { computed = simulation.frameRanges().has_value(); }));
    if (computed)
      std::printf("RANGES device_seconds=%.6f copy_seconds=%.6f\n", ranges, deviceRecycled);
  }
  if (baseline)
  {
    // The same scheme as a plain sequential C++ loop (the tests' twin, compiled -O3, one core),
    // on the same grid and state, for about as long as the device ran (at least 3 steps).
    const double twinRate = params.precision == swe::Precision::Double
                              ? twinCellsPerSecond<double>(params, std::max(seconds, 1.0))
                              : twinCellsPerSecond<float>(params, std::max(seconds, 1.0));
    std::printf(
      "BASELINE cpp_one_core_cells_per_second=%.6e speedup=%.2f\n", twinRate, rate / twinRate);
  }
  std::printf("RESULT cells_per_second=%.6e gbps=%.3f ceiling_fraction=%.4f seconds=%.6f\n",
    rate,
    achieved / 1e9,
    achieved / copy,
    seconds);
  return 0;
}

// Times every candidate launch shape, prints them fastest first, and (re)writes the cache entry
// that "--launch auto" reads. side: from --side, if given (else the grid is --nx by --ny).
int tune(CommonOptions& options, std::optional<int> side)
{
  options.params.launch = "default";
  if (side && *side <= 0)
    throw swe::Error("--side must be a positive number of cells, got " + std::to_string(*side));
  if (side)
    options.params.nx = options.params.ny = *side;
  const swe::SimulationParameters params = options.resolve();
  const swe::DeviceInfo device = swe::Simulation::check(params);
  // Every candidate, however long it takes (a run's own tuning stops after a few seconds); on a
  // terminal, what runs.
  swe::TuningLimits limits;
  if (isatty(STDERR_FILENO))
    limits.progress = [](double fraction, const std::string& text)
    { std::fprintf(stderr, "\r  %3.0f %%  %-60s", 100 * fraction, text.c_str()); };
  const swe::LaunchTuning tuning = swe::tuneLaunchShapes(params, device, limits);
  if (limits.progress)
    std::fprintf(stderr, "\n");
  for (const auto& t : tuning.timings)
    std::printf(
      "%-12s %8.3f Gcell/s (%d^2)\n", t.shape.text().c_str(), t.cellsPerSecond / 1e9, t.side);
  swe::storeLaunchShape(params, device, tuning);
  std::printf("RESULT launch=%s grid=%d cache=%s\n",
    tuning.timings.front().shape.text().c_str(),
    swe::tuningSide(params, device),
    swe::launchCachePath().c_str());
  return 0;
}

// The radial dam break (a 200 m square basin of nx x nx cells, t = 3 s, before any wave reaches a
// wall): symmetry under x<->y and under a rotation by 90 degrees, and the azimuthal spread: the
// mean difference between the radial depth profiles along an axis and along a diagonal (bilinear
// samples every half cell), relative to the wave's height; the grid's anisotropy, which an exact
// solution would not have.
int validateRadial(CommonOptions& options)
{
  options.params.ny = options.params.nx;
  options.params.dx = 200.0 / options.params.nx;
  const swe::SimulationParameters params = options.resolve();
  const int n = params.nx;
  swe::Simulation simulation(params, swe::makeScenario(swe::Scenario::RadialDamBreak, params));
  const double mass0 = simulation.diagnostics().mass;
  simulation.advanceTo(3.0);
  std::vector<double> h(static_cast<std::size_t>(n) * n);
  simulation.download(swe::Field::Depth, h.data());
  auto at = [&](int i, int j) { return h[static_cast<std::size_t>(j) * n + i]; };
  double transpose = 0, rotation = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
    {
      transpose = std::max(transpose, std::fabs(at(i, j) - at(j, i)));
      rotation = std::max(rotation, std::fabs(at(i, j) - at(n - 1 - j, i)));
    }
  // Depth at a point (in cell units, cell centres at k + 0.5), bilinear.
  auto sample = [&](double x, double y)
  {
    const double fx = x - 0.5, fy = y - 0.5;
    const int i = std::clamp(static_cast<int>(std::floor(fx)), 0, n - 2);
    const int j = std::clamp(static_cast<int>(std::floor(fy)), 0, n - 2);
    const double a = fx - i, b = fy - j;
    return (1 - a) * (1 - b) * at(i, j) + a * (1 - b) * at(i + 1, j) + (1 - a) * b * at(i, j + 1) +
           a * b * at(i + 1, j + 1);
  };
  double spread = 0;
  int samples = 0;
  const double c = 0.5 * n, d = 1.0 / std::sqrt(2.0);
  for (double r = 0; r < 0.5 * n - 2; r += 0.5, ++samples)
    spread += std::fabs(sample(c + r, c) - sample(c + r * d, c + r * d));
  spread /= samples;
  const double height =
    *std::max_element(h.begin(), h.end()) - *std::min_element(h.begin(), h.end());
  std::printf("RESULT case=radial scheme=%s precision=%s nx=%d transpose=%.3e rotation=%.3e "
              "azimuthal_spread=%.3e mass_rel_drift=%.3e\n",
    swe::schemeName(params.scheme).c_str(),
    swe::precisionName(params.precision).c_str(),
    n,
    transpose,
    rotation,
    spread / height,
    std::fabs(simulation.diagnostics().mass - mass0) / mass0);
  return 0;
}

// SWASHES dam breaks (L = 10 m, dam at 5 m, h_l = 5 mm, t = 6 s) as a strip of 4 rows: the L1
// error of the depth against the exact solution. Or the radial case above.
int validate(CommonOptions& options, const std::string& caseName, const std::string& profilePath)
{
  if (caseName == "radial")
    return validateRadial(options);
  const bool ritter = caseName == "ritter";
  if (!ritter && caseName != "stoker")
    throw swe::Error("unknown validation case '" + caseName + "' (known: ritter, stoker, radial)");
  options.params.ny = 4;
  options.params.dx = 10.0 / options.params.nx;
  const swe::SimulationParameters params = options.resolve();
  const auto scenario =
    ritter ? swe::Scenario::RitterDryDamBreak : swe::Scenario::StokerWetDamBreak;
  const double tEnd = 6.0, x0 = 5.0, hLeft = 0.005, hRight = 0.001;
  swe::Simulation simulation(params, swe::makeScenario(scenario, params));
  const double mass0 = simulation.diagnostics().mass;
  simulation.advanceTo(tEnd);
  std::vector<double> h(static_cast<std::size_t>(params.nx) * params.ny);
  simulation.download(swe::Field::Depth, h.data());
  std::ofstream profile;
  if (!profilePath.empty())
  {
    profile.open(profilePath);
    if (!profile)
      throw swe::Error("cannot write '" + profilePath + "'");
    profile.precision(10);
    profile << "x,h,exact\n";
  }
  double l1 = 0;
  for (int i = 0; i < params.nx; ++i)
  {
    const double x = (i + 0.5) * params.dx;
    const double exact = ritter ? swe::ritterDepth(x, tEnd, x0, hLeft, params.gravity)
                                : swe::stokerDepth(x, tEnd, x0, hLeft, hRight, params.gravity);
    l1 += std::fabs(h[i] - exact) * params.dx;
    if (profile)
      profile << x << "," << h[i] << "," << exact << "\n";
  }
  const double mass = simulation.diagnostics().mass;
  std::printf(
    "RESULT case=%s scheme=%s precision=%s nx=%d l1=%.6e steps=%lld mass_rel_drift=%.3e\n",
    caseName.c_str(),
    swe::schemeName(params.scheme).c_str(),
    swe::precisionName(params.precision).c_str(),
    params.nx,
    l1,
    static_cast<long long>(simulation.steps()),
    std::fabs(mass - mass0) / mass0);
  return 0;
}
} // namespace

int main(int argc, char** argv)
{
  CLI::App app{ "swe: 2D shallow-water simulation on OpenCL" };
  app.require_subcommand(1);
  CLI::App* devices = app.add_subcommand("devices", "list the OpenCL devices");

  CommonOptions runOptions;
  double tEnd = 20.0, outputEvery = 0.0;
  std::string outDir;
  std::vector<std::string> arrays;
  InputOptions input;
  CLI::App* runCmd = app.add_subcommand("run", "run a scenario, or a terrain from a .vti file");
  runOptions.add(runCmd);
  runCmd
    ->add_option("--scenario",
      runOptions.scenario,
      "dambreak, radial-dambreak, lake-at-rest, immersed-bump, emerged-bump, ritter or stoker")
    ->capture_default_str();
  runCmd->add_option("--dx", runOptions.params.dx, "cell size [m]")->capture_default_str();
  runCmd->add_option("--t-end", tEnd, "simulated time to reach [s]")->capture_default_str();
  runCmd->add_option("--output-every", outputEvery, "output interval [s] (0: only the end)");
  runCmd->add_option("--manning", runOptions.params.manning, "Manning coefficient n")
    ->capture_default_str();
  runCmd->add_option("--cfl", runOptions.params.cfl, "Courant number in (0, 1]")
    ->capture_default_str();
  runCmd->add_option(
    "--dt", runOptions.params.fixedDt, "fixed time step [s] (default: CFL-adaptive)");
  runCmd->add_option("--gravity", runOptions.params.gravity, "gravity [m/s^2]")
    ->capture_default_str();
  runCmd->add_option("--out", outDir, "directory for .vti files and a .pvd series");
  runCmd
    ->add_option("--arrays",
      arrays,
      "the cell arrays the .vti files hold, comma-separated (Depth, FreeSurface, Bed, Momentum, "
      "Velocity; default all)")
    ->delimiter(',');
  runCmd->add_option("--input",
    input.file,
    "a 2D .vti image with the terrain (replaces --scenario and the grid flags)");
  runCmd->add_option("--bed-array", input.bed, "terrain array of --input")->capture_default_str();
  runCmd->add_option("--depth-array", input.depth, "initial depth array of --input");
  runCmd->add_option("--surface-array", input.surface, "initial water-surface array of --input");
  runCmd->add_option("--velocity-array", input.velocity, "initial velocity array of --input");
  runCmd->add_option("--manning-array", input.manning, "per-cell Manning array of --input");
  runCmd->add_option("--water-level",
    input.waterLevel,
    "initial water-surface elevation where --input gives no water [m]");

  CommonOptions benchOptions;
  int steps = 200;
  CLI::App* benchCmd = app.add_subcommand("bench", "time the step loop");
  benchOptions.add(benchCmd);
  benchCmd->add_option("--steps", steps, "steps to time (after warm-up)")->capture_default_str();
  benchCmd->add_option(
    "--dt", benchOptions.params.fixedDt, "fixed time step [s] (default: adaptive)");
  benchCmd
    ->add_option("--manning",
      benchOptions.params.manning,
      "Manning coefficient n (default 0: frictionless, as the thesis's dam break)")
    ->capture_default_str();
  bool baseline = false;
  benchCmd->add_flag("--baseline",
    baseline,
    "also time the scheme as a plain one-core C++ loop (the twin) and print the speed-up");

  CommonOptions tuneOptions;
  int tuneSide = 0;
  CLI::App* tuneCmd = app.add_subcommand(
    "tune", "time the step kernel's launch shapes and cache the fastest for --launch auto");
  tuneOptions.add(tuneCmd);
  tuneCmd->add_option("--side",
    tuneSide,
    "tune for square grids of this side (sets --nx and --ny; the trial runs on the size rounded "
    "to a power of two, 1024 to 8192, on GPUs, and on 512^2 on CPUs)");
  tuneCmd->add_option("--dt",
    tuneOptions.params.fixedDt,
    "tune for runs with a fixed time step (any value > 0: the trial picks its own)");

  CommonOptions validateOptions;
  std::string caseName = "stoker", profilePath;
  CLI::App* validateCmd = app.add_subcommand(
    "validate", "L1 error of a SWASHES dam break (t = 6 s) against its exact solution");
  validateOptions.add(validateCmd);
  validateCmd->add_option("--case", caseName, "ritter (dry bed), stoker (wet bed) or radial")
    ->capture_default_str();
  validateCmd->add_option("--profile", profilePath, "write x, h, exact to this CSV file");

  CLI11_PARSE(app, argc, argv);
  swe::setLaunchWarningHandler(
    [](const std::string& message) { std::cerr << "swe: warning: " << message << "\n"; });
  try
  {
    if (*devices)
      return listDevices();
    if (*runCmd)
      return run(runOptions, input, tEnd, outputEvery, outDir, arrays);
    if (*benchCmd)
      return bench(benchOptions, steps, baseline);
    if (*tuneCmd)
      return tune(
        tuneOptions, tuneCmd->count("--side") ? std::optional<int>(tuneSide) : std::nullopt);
    if (*validateCmd)
      return validate(validateOptions, caseName, profilePath);
  }
  catch (const swe::Error& e)
  {
    std::cerr << "swe: error: " << e.what() << "\n";
    return 1;
  }
  catch (const std::exception& e)
  {
    std::cerr << "swe: unexpected error: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
