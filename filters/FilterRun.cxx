#include "FilterRun.h"

#include "Error.h"
#include "FrameImage.h"
#include "FrameReadings.h"
#include "FrameSnapshot.h"
#include "GridLayout.h"
#include "Devices.h"
#include "CacheWarnings.h"
#include "LaunchTuner.h"
#include "PipelineRanks.h"
#include "SinglePrecisionAdvice.h"
#include "Timeline.h"
#include "WaterBalance.h"

#include <vtkAlgorithm.h>
#include <vtkDataObject.h>
#include <vtkDemandDrivenPipeline.h>
#include <vtkDoubleArray.h>
#include <vtkFieldData.h>
#include <vtkImageData.h>
#include <vtkInformation.h>
#include <vtkOutputWindow.h>
#include <vtkStringArray.h>

#include <algorithm>
#include <cstdio>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <sstream>

namespace swe
{
namespace
{
constexpr double kNever = std::numeric_limits<double>::infinity();

// The modification time of algorithm's pipeline (itself and everything upstream) in the update
// under way: it changes with any property or upstream change, and not within one update.
vtkMTimeType PipelineTime(vtkAlgorithm* algorithm)
{
  auto* executive = vtkDemandDrivenPipeline::SafeDownCast(algorithm->GetExecutive());
  return executive ? executive->GetPipelineMTime() : 0;
}

bool SameGrid(const SimulationParameters& a, const SimulationParameters& b)
{
  return a.nx == b.nx && a.ny == b.ny && a.dx == b.dx;
}

// Clears the progress text a run set, also when the run fails.
struct ProgressTextCleared
{
  vtkAlgorithm* Algorithm;
  ~ProgressTextCleared() { this->Algorithm->SetProgressText(nullptr); }
};
} // namespace

FilterRun::FilterRun(vtkAlgorithm* algorithm)
  : algorithm_(algorithm)
{
  // The engine's warnings about its caches (one it cannot write: every run would tune or build
  // the kernels again) reach the user as VTK warnings; set once for the process.
  static const bool cacheWarningsShown = []
  {
    setCacheWarningHandler([](const std::string& message)
      { vtkOutputWindowDisplayWarningText(("Shallow Water: " + message + "\n").c_str()); });
    return true;
  }();
  (void)cacheWarningsShown;
}

FilterRun::~FilterRun() = default;

void FilterRun::restart()
{
  timeline_.reset();
  failedFrom_ = kNever;
}

bool FilterRun::runsOnOtherGrid(const FrameRequest& request) const
{
  if (!timeline_)
    return false;
  // A split run's simulation holds this rank's block: its grid is the partition's, and a
  // request for another piece is another run.
  SimulationParameters running = timeline_->simulation().parameters();
  if (partition_)
  {
    running.nx = partition_->gridNx;
    running.ny = partition_->gridNy;
  }
  const bool samePiece =
    partition_ ? request.piece && *request.piece == partition_->block() : !request.piece;
  return !SameGrid(running, request.params) || !samePiece;
}

void FilterRun::setOutputInterval(double interval)
{
  if (!timeline_ || !std::isfinite(interval) || !(interval > 0))
    return;
  try
  {
    timeline_->setOutputInterval(interval);
  }
  catch (const Error&)
  {
    timeline_.reset(); // the next request starts afresh
    throw;
  }
}

void FilterRun::makeFrame(const FrameRequest& request,
  const InitialStateMaker& makeInitialState,
  vtkImageData* output)
{
  ProgressTextCleared cleared{ algorithm_ };
  if (!timeline_)
    start(request, makeInitialState);
  const FrameTimings before{
    timeline_->steppingSeconds(), timeline_->checkpointSeconds(), 0, timeline_->steppedSteps()
  };
  aborted_ = !seek(request.time);
  if (!aborted_)
  {
    fill(request, output, before);
    diagnostics_.record(output->GetFieldData());
    return;
  }
  // Aborted: the output is the consistent state the seek stopped at, at its own time (the view
  // keeps a map of where the run stands), and the next update runs on from there. The abort is
  // honoured: left set, the flag would abort every later request at once, and CheckAbort's
  // AbortOutput would have the executive empty the output.
  algorithm_->SetAbortExecute(0);
  algorithm_->SetAbortOutput(false);
  // (said once, though ParaView asks again within the update and the armed button aborts those
  // at once)
  const std::string said = status_;
  // (to the hundredth of a second a person reads, not the 15 digits that give the double)
  char reached[32];
  std::snprintf(reached, sizeof(reached), "%.2f", timeline_->time());
  status_ = "aborted at t = " + std::string(reached) + " s on the way to " +
            formatValue(request.time) + " s (" + std::to_string(timeline_->simulation().steps()) +
            " steps): the run is kept there, and Play or another time goes on from it";
  if (status_ != said)
    vtkWarningWithObjectMacro(algorithm_, << status_);
  fill(request, output, before, false);
}

const GaugeRecord& FilterRun::gauges() const
{
  static const GaugeRecord none;
  return timeline_ ? timeline_->simulation().gauges() : none;
}

std::vector<std::array<double, 2>> FilterRun::gaugeSites() const
{
  return timeline_ ? timeline_->simulation().parameters().gauges
                   : std::vector<std::array<double, 2>>{};
}

bool FilterRun::onAnyRank(bool yes) const
{
  return ranks_ && partition_ ? !ranks_->allAgree(!yes) : yes;
}

namespace
{
// What a run's parameters take from its inputs' data, which each rank reads for itself: the
// grid, the Series table's series, the gauge points and the point sources, as text.
std::string inputsText(const SimulationParameters& p)
{
  std::ostringstream s;
  s.precision(17);
  const auto series = [&s](const Series& points)
  {
    s << points.size() << ':';
    for (const std::array<double, 2>& point : points)
      s << point[0] << ',' << point[1] << ';';
  };
  s << p.nx << ' ' << p.ny << ' ' << p.dx << ' ' << p.origin[0] << ' ' << p.origin[1] << '|';
  series(p.rainSeries);
  for (const Series& zone : p.rainZones)
    series(zone);
  for (const Boundary& side : p.boundaries)
    series(side.series);
  s << '|';
  for (const std::array<double, 2>& gauge : p.gauges)
    s << gauge[0] << ',' << gauge[1] << ';';
  for (const PointSource& source : p.sources)
  {
    s << source.x << ',' << source.y << ';';
    series(source.discharge);
  }
  return s.str();
}
} // namespace

FrameRequest FilterRun::checkedOnEveryRank(bool split, const std::function<FrameRequest()>& make)
{
  if (split && !ranks_)
    ranks_ = pipelineRanks();
  if (!split || !ranks_)
    return make();
  FrameRequest request;
  runAgreed(ranks_.get(), [&] { request = make(); });
  // (the text's digest, in halves a double holds exactly: equal on every rank where its largest
  // and its smallest, as minus the largest of its negation, agree)
  const std::uint64_t digest = std::hash<std::string>{}(inputsText(request.params));
  const double high = static_cast<double>(digest >> 32), low = static_cast<double>(digest & ~0u);
  double bounds[4] = { high, low, -high, -low };
  ranks_->maxOverRanks(bounds, 4);
  if (bounds[0] != -bounds[2] || bounds[1] != -bounds[3])
    throw Error("the ranks read different inputs (a Series table, gauge points or the terrain's "
                "grid): every rank must read them whole. Feed the solver from readers or filters "
                "that give every rank the same table and points");
  return request;
}

void FilterRun::start(const FrameRequest& request, const InitialStateMaker& makeInitialState)
{
  SimulationPlan plan;
  InitialState initial;
  if (request.piece)
    initial = startSplit(request, makeInitialState, plan);
  else
  {
    partition_.reset();
    // The plan is the only part of a run's set-up that may tune launch shapes (for about 3 s,
    // on the first run on a device, scheme, precision and grid size): the progress bar says so,
    // shape by shape. The simulation made from it never tunes.
    plan = Simulation::plan(request.params,
      false,
      [this](double fraction, const std::string& text) { reportTuning(fraction, text); });
    initial = makeInitialState(plan.params, nullptr);
  }
  // (A split run's ranks each see their block: the warning is for a single one.)
  if (!request.piece && !request.restartFrom && nothingMoves(initial, plan.params))
    vtkWarningWithObjectMacro(algorithm_,
      << "the domain starts dry everywhere and no water enters it, so nothing will move: set "
         "Initial Water Level above the terrain somewhere, choose a Depth or Free Surface "
         "Array, set Rainfall, or make a side an Inflow or Water level boundary");
  timeline_ = std::make_unique<Timeline>(
    plan, initial, request.outputInterval, checkpointLimits(plan.params));
  // (after the state's checks, which the timeline's simulation makes; a split run's from every
  // rank's block, said once)
  const std::string precisionWarning =
    singlePrecisionSourceWarning(plan.params, initial, request.piece ? ranks_.get() : nullptr);
  if (!precisionWarning.empty() && !request.restartFrom && (!request.piece || ranks_->rank() == 0))
    vtkWarningWithObjectMacro(algorithm_, << precisionWarning);
  if (request.restartFrom)
    continueFrom(*request.restartFrom, plan.params, request.lastOutput);
  arrays_.Bed = nullptr;
  relief_ = {};
  diagnostics_.clear();
  // (the water the run starts with, as the device holds it: what its balance starts from)
  if (plan.params.waterBalance)
  {
    balanceRainedCells_ = initial.rainedCells(plan.params.rainZones.size());
    balanceInitial_ = closingInitialVolume(
      timeline_->simulation().downloadState(), plan.params, balanceRainedCells_);
  }
}

Timeline::Limits FilterRun::checkpointLimits(const SimulationParameters& params) const
{
  Timeline::Limits limits;
  if (!partition_)
    return limits;
  // A split run's ranks must keep the same checkpoints, or going back they would restore
  // different times and their collectives would no longer meet: no limit by each rank's own
  // clock, and the same count on every rank (the fewest any rank's memory allows).
  limits.maxCheckpointShare = std::numeric_limits<double>::infinity();
  const std::uint64_t each = stateFields(params).size() * static_cast<std::uint64_t>(params.nx) *
                             static_cast<std::uint64_t>(params.ny) * realBytes(params.precision);
  double fewest = -static_cast<double>(
    std::max<std::uint64_t>(2, limits.maxCheckpointBytes / std::max<std::uint64_t>(each, 1)));
  ranks_->maxOverRanks(&fewest, 1);
  limits.maxCheckpoints = std::min(limits.maxCheckpoints, static_cast<std::size_t>(-fewest));
  limits.maxCheckpointBytes = std::numeric_limits<std::uint64_t>::max();
  return limits;
}

void FilterRun::continueFrom(vtkImageData& frame,
  const SimulationParameters& params,
  double lastOutput)
{
  if (partition_)
    throw Error("a Restart Frame continues a run on one process, and this one is split among "
                "ranks: run it without mpirun");
  if (params.waterBalance)
    throw Error("a Restart Frame continues the state, not the water balance kept from t = 0: "
                "turn Water Balance off, or run from t = 0");
  std::string warning;
  const Snapshot state =
    frameSnapshot(&frame, timeline_->simulation(), "the Restart Frame", warning);
  if (!(state.time < lastOutput))
    throw Error("the Restart Frame is at t = " + formatValue(state.time) +
                " s, not before the last output time " + formatValue(lastOutput) +
                " s: give a later End Time");
  timeline_->startFrom(state);
  if (!warning.empty())
    vtkWarningWithObjectMacro(algorithm_, << warning);
}

InitialState FilterRun::startSplit(const FrameRequest& request,
  const InitialStateMaker& makeInitialState,
  SimulationPlan& plan)
{
  if (!ranks_)
    ranks_ = pipelineRanks();
  if (!ranks_)
    throw Error("the pipeline asked for a piece of the grid, but ParaView runs on one process "
                "here (or the plugin was built without MPI): run pvbatch or pvserver under mpirun");
  // Each rank takes its node's next device unless the Device property names one.
  SimulationParameters params = request.params;
  partition_ = gatherPartition(params.nx, params.ny, *request.piece, *ranks_);
  InitialState initial;
  runAgreed(ranks_.get(),
    [&]
    {
      // Checked and tuned for this rank's block, which is what it holds.
      params.device = deviceSelectorForRank(params.device, pipelineNodeLocalRank());
      plan = Simulation::plan(blockParameters(params, *partition_),
        false,
        [this](double fraction, const std::string& text) { reportTuning(fraction, text); });
      initial = makeInitialState(params, &partition_->block());
      splitAmongRanks(plan, *partition_, *ranks_);
    });
  // Each rank's device, for the outputs' field data: the same for the whole run.
  const std::string& mine = plan.device.name;
  const auto names = ranks_->allGather(std::vector<unsigned char>(mine.begin(), mine.end()));
  splitDevices_.clear();
  for (std::size_t rank = 0; rank < names.size(); ++rank)
    splitDevices_ += (rank ? "; rank " : "rank ") + std::to_string(rank) + ": " +
                     std::string(names[rank].begin(), names[rank].end());
  return initial;
}

void FilterRun::reportTuning(double fraction, const std::string& text)
{
  algorithm_->SetProgressText(text.c_str());
  algorithm_->UpdateProgress(fraction);
}

bool FilterRun::seek(double target)
{
  const double start = timeline_->time();
  const double span = std::fabs(target - start);
  // A late animation time (a source added while the animation stands at the end) can mean a
  // long run: the progress bar says where it is going.
  const std::string progressText = "Shallow Water: simulating to t = " + formatValue(target) + " s";
  algorithm_->SetProgressText(progressText.c_str());
  algorithm_->UpdateProgress(0.0);
  // An abort raised before the first batch (the GUI's button stays armed for the requests
  // ParaView makes again within the same update) takes no step: the next batch could be the
  // whole way to the target.
  if (algorithm_->CheckAbort())
    return false;
  return timeline_->seek(target,
    [&](double t)
    {
      if (span > 0)
        algorithm_->UpdateProgress(std::min(1.0, std::fabs(t - start) / span));
      return !algorithm_->CheckAbort();
    });
}

void FilterRun::fill(const FrameRequest& request,
  vtkImageData* output,
  const FrameTimings& before,
  bool mayStepAhead)
{
  const auto outputStart = std::chrono::steady_clock::now();
  // On a GPU the steps to the next output time (what Play asks for next) run while this frame's
  // output is made; the next request waits for them (Timeline::output). A CPU device would
  // take the cores the output pass uses.
  const bool stepAhead =
    mayStepAhead && request.device.type != "CPU" && request.time < request.lastOutput;
  // The image is filled while the state reaches the host.
  FrameImage frame(timeline_->simulation(), output, request.origin, &arrays_, request.selection);
  frame.setBalance(balanceInitial_, balanceRainedCells_);
  const StateView view = timeline_->output(stepAhead ? request.lastOutput : 0.0,
    [&](const StateView& state, const RowsWait& waitForRows) { frame.fill(state, waitForRows); });
  const SimulationParameters& grid = timeline_->simulation().parameters();
  // (the relief with the bed it shades: an output without Bed, as Output Arrays chose, has none)
  if (request.selection(FrameArray::Bed))
    addRelief(output,
      arrays_.Bed,
      { grid.nx, grid.ny, grid.dx, grid.arrivalDepth },
      partition_ ? ranks_.get() : nullptr,
      relief_);
  addFloodClasses(output, grid.arrivalDepth);
  if (partition_)
    placePiece(output);
  // Where this frame's time went (for users and for the frame-overhead benchmark): stepping,
  // checkpoints, and making the output (download and VTK arrays).
  addFrameTimings(output,
    { timeline_->steppingSeconds() - before.stepping,
      timeline_->checkpointSeconds() - before.checkpoints,
      std::chrono::duration<double>(std::chrono::steady_clock::now() - outputStart).count(),
      timeline_->steppedSteps() - before.steps });
  const Simulation& simulation = timeline_->simulation();
  const bool deviceCheckpoints = timeline_->checkpointPlace() == SnapshotPlace::Device;
  addDeviceMemory(output,
    static_cast<double>(
      simulation.deviceBytes() +
      (deviceCheckpoints ? timeline_->checkpointCount() * simulation.stateBytes() : 0)));
  output->GetInformation()->Set(vtkDataObject::DATA_TIME_STEP(), view.time);
  algorithm_->UpdateProgress(1.0);
}

void FilterRun::placePiece(vtkImageData* output) const
{
  // Where this rank's block lies in the whole grid.
  const Block& b = partition_->block();
  output->SetExtent(b.x0, b.x0 + b.nx, b.y0, b.y0 + b.ny, 0, 0);
  // The field data the Information tab shows (rank 0's piece's) describes the whole run: the
  // mass of the whole grid, its largest depth and wave speed, and each rank's device.
  vtkFieldData* field = output->GetFieldData();
  for (const char* name : { "Mass", "FloodedArea" })
    if (auto* sum = vtkDoubleArray::SafeDownCast(field->GetArray(name)))
    {
      double total = sum->GetValue(0);
      ranks_->sumOverRanks(&total, 1);
      sum->SetValue(0, total);
    }
  for (const char* name : { "LargestDepth", "StepWaveSpeed" })
  {
    // (every rank takes part, one without the array too: -1)
    auto* largest = vtkDoubleArray::SafeDownCast(field->GetArray(name));
    double value = largest ? largest->GetValue(0) : -1.0;
    ranks_->maxOverRanks(&value, 1);
    if (largest)
      largest->SetValue(0, value);
  }
  // The water balance: each rank's volumes are its block's; the run's are their sums.
  static const char* const volumes[] = { "StoredVolume",
    "InitialVolume",
    "RainVolume",
    "InflowVolume",
    "OutflowVolume",
    "InfiltratedVolume" };
  std::array<vtkDoubleArray*, 6> arrays{};
  for (std::size_t k = 0; k < arrays.size(); ++k)
    arrays[k] = vtkDoubleArray::SafeDownCast(field->GetArray(volumes[k]));
  if (std::all_of(arrays.begin(), arrays.end(), [](vtkDoubleArray* a) { return a; }))
  {
    std::array<double, 6> sums{};
    for (std::size_t k = 0; k < arrays.size(); ++k)
      sums[k] = arrays[k]->GetValue(0);
    ranks_->sumOverRanks(sums.data(), static_cast<int>(sums.size()));
    for (std::size_t k = 0; k < arrays.size(); ++k)
      arrays[k]->SetValue(0, sums[k]);
    WaterBalance b;
    b.stored = sums[0];
    b.initial = sums[1];
    b.rain = sums[2];
    b.inflow = sums[3];
    b.outflow = sums[4];
    b.infiltration = sums[5];
    for (const auto& [name, value] :
      { std::pair{ "BalanceError", b.error() }, { "RelativeBalanceError", b.relativeError() } })
      if (auto* array = vtkDoubleArray::SafeDownCast(field->GetArray(name)))
        array->SetValue(0, value);
  }
  if (auto* device = vtkStringArray::SafeDownCast(field->GetAbstractArray("Device")))
    device->SetValue(0, splitDevices_);
}

void FilterRun::failed(const std::string& message, double from)
{
  // A run that failed (a blow-up, a lost device) cannot continue: start afresh next time.
  timeline_.reset();
  failedFrom_ = std::min(failedFrom_, from);
  // No partial frame: the executive empties the output and marks it ABORTED, which asks to run
  // again next time. The request itself succeeds: a failed one stops ParaView's .pvd writer
  // (WriteTimeSteps) from ever asking for another time step, and it loops forever.
  algorithm_->SetAbortOutput(true);
  reportError(message);
}

void FilterRun::reportError(const std::string& message)
{
  // ParaView may ask several times in one update (for each view, for data after information):
  // said once. After any property or upstream change, a new attempt says its error again.
  // (What a failed request changes in the filter itself, its aborted output and the Output Arrays
  // it drops, counts as the state said: the next request's pipeline time is that.)
  status_ = message;
  const vtkMTimeType pipelineTime = PipelineTime(algorithm_);
  const bool said = message == reportedError_ && pipelineTime <= reportedErrorPipelineTime_;
  reportedError_ = message;
  reportedErrorPipelineTime_ = std::max(pipelineTime, algorithm_->GetMTime());
  if (said)
    return;
  vtkErrorWithObjectMacro(algorithm_, << message);
}
} // namespace swe
