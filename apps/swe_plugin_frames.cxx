// swe_plugin_frames: how much of each frame the plugin's source spends outside the engine's
// stepping, with VTK alone (no ParaView, no Python), so that it runs where only the plugin's
// module library and VTK's core libraries can be carried: the lent GPU machine. The twin of
// scripts/frame_overhead.py (pvbatch), with the baseline in the same run: the same frames
// stepped by the engine alone, with no output.
//
// Plays the thesis dam break as the "Shallow Water" source (vtkShallowWaterSource) on an N x N
// grid with an output every ~S steps, asking for each output time in turn as Play does, and
// holding each output until the next one is made (as ParaView's output port and views do). After
// each frame it asks every array for what ParaView's data information asks (the GUI gathers it
// after every time step) as the frame comes (the ranges the source cached); and once at the end,
// after dropping them, so that VTK computes its own, as it had to before the source cached them.
#include "FrameImage.h"
#include "InitialState.h"
#include "Parameters.h"
#include "Simulation.h"
#include "Timing.h"
#include "vtkShallowWaterSource.h"

#include <vtkCellData.h>
#include <vtkDataArraySelection.h>
#include <vtkDataArray.h>
#include <vtkFieldData.h>
#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkSmartPointer.h>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

namespace
{
using swe::cli::Clock;
using swe::cli::secondsSince;

double field(vtkImageData* data, const char* name)
{
  vtkDataArray* array = data->GetFieldData()->GetArray(name);
  return array ? array->GetTuple1(0) : -1;
}

// What vtkPVArrayInformation asks of every cell array: the range and the finite range of each
// component, and of the L2 norm for vectors; into answers, if given. Returns the seconds it took.
double askRanges(vtkImageData* data,
  bool dropCachedFirst = false,
  std::vector<double>* answers = nullptr)
{
  vtkCellData* cells = data->GetCellData();
  if (dropCachedFirst)
    for (int i = 0; i < cells->GetNumberOfArrays(); ++i)
      cells->GetArray(i)->Modified();
  const auto start = Clock::now();
  for (int i = 0; i < cells->GetNumberOfArrays(); ++i)
  {
    vtkDataArray* array = cells->GetArray(i);
    const int components = array->GetNumberOfComponents();
    for (int c = components > 1 ? -1 : 0; c < components; ++c)
    {
      double range[2], finite[2];
      array->GetRange(range, c);
      array->GetFiniteRange(finite, c);
      if (answers)
        answers->insert(answers->end(), { range[0], range[1], finite[0], finite[1] });
    }
  }
  return secondsSince(start);
}

double median(std::vector<double> values)
{
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

struct Options
{
  int n = 4096;
  int frames = 6;
  int stepsPerFrame = 100;
  std::string precision = "single";
  std::string scheme = "lax-friedrichs";
  std::string device = "auto";
  std::vector<std::string> arrays; // the source's Output Arrays; empty: all
};

// The baseline: the frames stepped by the engine alone, each waited for, nothing downloaded.
struct EngineAlone
{
  std::vector<double> seconds;  // each frame's
  std::vector<long long> steps; // the steps taken by the end of each frame
  double interval = 0;          // the output interval: a frame is about stepsPerFrame steps
};

EngineAlone stepAlone(const Options& o, const swe::SimulationParameters& params)
{
  // A first short advance tells dt, so that a frame is about stepsPerFrame steps.
  EngineAlone alone;
  const auto state = swe::makeScenario(swe::Scenario::DamBreak, params);
  {
    swe::Simulation probe(params, state);
    probe.advanceTo(0.3);
    alone.interval = o.stepsPerFrame * 0.3 / static_cast<double>(probe.steps());
  }
  swe::Simulation simulation(params, state);
  for (int k = 1; k <= o.frames; ++k)
  {
    const auto start = Clock::now();
    simulation.advanceTo(k * alone.interval);
    alone.seconds.push_back(secondsSince(start));
    alone.steps.push_back(simulation.steps());
  }
  std::printf("plugin frames: %d x %d, %s, %s, output every %.4g s (~%d steps), device %s\n",
    o.n,
    o.n,
    swe::schemeName(params.scheme).c_str(),
    swe::precisionName(params.precision).c_str(),
    alone.interval,
    o.stepsPerFrame,
    simulation.device().name.c_str());
  return alone;
}

// The "Shallow Water" source on the same grid and frames, as Play asks for them.
vtkSmartPointer<vtkShallowWaterSource> makeSource(const Options& o,
  const swe::SimulationParameters& params,
  double interval)
{
  auto source = vtkSmartPointer<vtkShallowWaterSource>::New();
  source->SetScenario(static_cast<int>(swe::Scenario::DamBreak));
  source->SetResolution(o.n, o.n);
  source->SetCellSize(params.dx);
  source->SetScheme(static_cast<int>(params.scheme));
  source->SetPrecision(params.precision == swe::Precision::Double ? vtkShallowWaterSource::DOUBLE
                                                                  : vtkShallowWaterSource::SINGLE);
  source->SetDevice(o.device.c_str());
  source->SetEndTime((o.frames + 2) * interval); // every frame steps ahead, as mid-Play
  source->SetOutputInterval(interval);
  const swe::FrameArraySelection chosen = swe::frameArraySelection(o.arrays); // names checked
  for (int a = 0; a < swe::kFrameArrayCount; ++a)
    source->GetCellArraySelection()->SetArraySetting(swe::kFrameArrayNames[a], chosen.holds[a]);
  return source;
}

// The shares of the frames after the first (which also builds the kernels: not comparable).
struct FrameShares
{
  std::vector<double> outside, outputs, withRanges;
};

// Plays the frames through the source, a table row each, holding each output as a consumer
// would (into held); false, with the reason on stderr, if the source and the engine alone took
// different steps.
bool playFrames(vtkShallowWaterSource* source,
  const Options& o,
  const EngineAlone& alone,
  vtkImageData* held,
  FrameShares& shares)
{
  std::printf("| frame | steps | wall s | engine alone s | step wait s | checkpoint s | output s | "
              "outside stepping | ranges s | outside with ranges |\n"
              "|---|---|---|---|---|---|---|---|---|---|\n");
  long long stepsBefore = 0;
  for (int k = 1; k <= o.frames; ++k)
  {
    const auto start = Clock::now();
    source->UpdateTimeStep(k * alone.interval);
    const double wall = secondsSince(start);
    auto* output = vtkImageData::SafeDownCast(source->GetOutputDataObject(0));
    const auto steps = static_cast<long long>(output ? field(output, "Steps") : -1);
    if (steps != alone.steps[k - 1])
    {
      std::fprintf(stderr,
        "swe_plugin_frames: the source took %lld steps to frame %d, the engine alone %lld\n",
        steps,
        k,
        alone.steps[k - 1]);
      return false;
    }
    held->ShallowCopy(output);
    const double output_seconds = field(output, "OutputSeconds");
    const double ranges = askRanges(held);
    const double aloneSeconds = alone.seconds[k - 1];
    if (k > 1)
    {
      shares.outside.push_back(1 - aloneSeconds / wall);
      shares.outputs.push_back(output_seconds);
      shares.withRanges.push_back(1 - aloneSeconds / (wall + ranges));
    }
    std::printf("| %d | %lld | %.4f | %.4f | %.4f | %.4f | %.4f | %.1f %% | %.4f | %.1f %% |\n",
      k,
      steps - stepsBefore,
      wall,
      aloneSeconds,
      field(output, "StepSeconds"),
      field(output, "CheckpointSeconds"),
      output_seconds,
      100 * (1 - aloneSeconds / wall),
      ranges,
      100 * (1 - aloneSeconds / (wall + ranges)));
    stepsBefore = steps;
  }
  return true;
}

int run(const Options& o)
{
  swe::SimulationParameters params; // the source's defaults are the engine's
  params.precision = swe::precisionFromName(o.precision);
  params.scheme = swe::schemeFromName(o.scheme);
  params.nx = params.ny = o.n;
  params.dx = 0.5;
  params.device = o.device;
  const EngineAlone alone = stepAlone(o, params);
  const auto source = makeSource(o, params, alone.interval);
  vtkNew<vtkImageData> held; // the consumer's copy of the last frame
  FrameShares shares;
  if (!playFrames(source, o, alone, held, shares))
    return 1;
  // The last frame's ranges as the source cached them, then as VTK computes them: the same.
  std::vector<double> cached, computed;
  askRanges(held, false, &cached);
  const double vtkRanges = askRanges(held, true, &computed);
  if (cached != computed)
  {
    std::fprintf(stderr, "swe_plugin_frames: the cached ranges are not VTK's own\n");
    return 1;
  }
  std::printf("RESULT median_outside_stepping=%.4f median_output_seconds=%.6f "
              "median_alone_seconds=%.6f median_outside_with_ranges=%.4f "
              "vtk_ranges_seconds=%.6f\n",
    median(shares.outside),
    median(shares.outputs),
    median(std::vector<double>(alone.seconds.begin() + 1, alone.seconds.end())),
    median(shares.withRanges),
    vtkRanges);
  return 0;
}
} // namespace

int main(int argc, char** argv)
{
  Options o;
  CLI::App app{ "How much of each frame the Shallow Water source spends outside stepping" };
  app.add_option("--n", o.n, "cells along x and y")->capture_default_str();
  app.add_option("--frames", o.frames, "frames after the first (at least 2)")
    ->capture_default_str()
    ->check(CLI::Range(2, 1000));
  app.add_option("--steps", o.stepsPerFrame, "steps a frame, about")->capture_default_str();
  app.add_option("--precision", o.precision, "single or double")->capture_default_str();
  app.add_option("--scheme", o.scheme, "lax-friedrichs, muscl-hllc or muscl-hancock")
    ->capture_default_str();
  app.add_option("--device", o.device, "auto, an index, or part of a name")->capture_default_str();
  app
    .add_option("--arrays",
      o.arrays,
      "the output arrays (Depth, FreeSurface, Bed, Momentum, Velocity, and the flood maps and "
      "infiltration of a run that has them; default all)")
    ->delimiter(',');
  CLI11_PARSE(app, argc, argv);
  try
  {
    return run(o);
  }
  catch (const std::exception& e)
  {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
