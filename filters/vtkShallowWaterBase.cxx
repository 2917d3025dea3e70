#include "vtkShallowWaterBase.h"

#include "Error.h"
#include "LaunchTuner.h"
#include "Simulation.h"
#include "FrameImage.h"
#include "InitialState.h"
#include "Timeline.h"

#include <vtkCommand.h>
#include <vtkDataArraySelection.h>
#include <vtkDataObject.h>
#include <vtkImageData.h>
#include <vtkInformation.h>
#include <vtkInformationVector.h>
#include <vtkNew.h>
#include <vtkObjectFactory.h>
#include <vtkOutputWindow.h>
#include <vtkStreamingDemandDrivenPipeline.h>
#include <vtkStringArray.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <new>
#include <string>
#include <vector>

namespace
{
// Output times past this many would make ParaView's time toolbar useless; it is also a guard
// against an OutputInterval typed in the wrong unit.
constexpr double kMaxOutputTimes = 1e6;
constexpr double kNever = std::numeric_limits<double>::infinity();

// The arrays "Output Arrays" holds. Python may name any array; an unknown one gets the error of
// `swe run --arrays` rather than a frame without it.
swe::FrameArraySelection SelectedArrays(vtkDataArraySelection* arrays)
{
  std::vector<std::string> names;
  for (int a = 0; a < arrays->GetNumberOfArrays(); ++a)
    if (arrays->GetArraySetting(a))
      names.emplace_back(arrays->GetArrayName(a));
  if (names.empty()) // (frameArraySelection would take that for all of them)
  {
    swe::FrameArraySelection none;
    none.holds.fill(false);
    return none;
  }
  try
  {
    return swe::frameArraySelection(names);
  }
  catch (const swe::Error& e)
  {
    throw swe::Error(std::string("Output Arrays: ") + e.what());
  }
}

// Python's OutputArrays lists only the arrays ParaView last heard of, so a name that is left in
// the selection would never be unset: names refused are dropped, after RequestInformation (the
// change makes the next update ask for information again).
void DropUnknownArrays(vtkDataArraySelection* arrays)
{
  for (int a = arrays->GetNumberOfArrays() - 1; a >= 0; --a)
  {
    const std::string name = arrays->GetArrayName(a);
    if (std::find(std::begin(swe::kFrameArrayNames), std::end(swe::kFrameArrayNames), name) ==
        std::end(swe::kFrameArrayNames))
      arrays->RemoveArrayByName(name.c_str());
  }
}

// A run that can only stay as it is: no water anywhere and none coming in.
// The modification time of algorithm's pipeline (itself and everything upstream) in the update
// under way: it changes with any property or upstream change, and not within one update.
vtkMTimeType PipelineTime(vtkAlgorithm* algorithm)
{
  auto* executive = vtkDemandDrivenPipeline::SafeDownCast(algorithm->GetExecutive());
  return executive ? executive->GetPipelineMTime() : 0;
}

bool NothingMoves(const swe::InitialState& initial, const swe::SimulationParameters& params)
{
  for (const swe::Boundary& side : params.boundaries)
    if (side.type == swe::BoundaryType::Inflow || side.type == swe::BoundaryType::FixedLevel)
      return false;
  return std::all_of(initial.h.begin(), initial.h.end(), [](double h) { return h == 0; });
}

bool SameGrid(const swe::SimulationParameters& a, const swe::SimulationParameters& b)
{
  return a.nx == b.nx && a.ny == b.ny && a.dx == b.dx;
}
} // namespace

class vtkShallowWaterBase::vtkInternals
{
public:
  std::unique_ptr<swe::Timeline> Timeline;
  // The last output's arrays: its Bed is shared by the Timeline's later outputs, the others
  // are refilled by the next output where no consumer still holds them.
  swe::FrameArrays Arrays;
  // Which cell arrays the outputs hold ("Output Arrays"): all by default.
  vtkNew<vtkDataArraySelection> CellArrays;
  vtkNew<vtkStringArray> Devices;
  bool DevicesListed = false;
  // Requests for this output time or later failed in this run (a blow-up recurs at the same
  // step): they fail at once, without replaying from t = 0 or repeating the error, for ParaView's
  // .pvd writer asks again for a time step that failed until it succeeds. Any change of physics
  // or input, or Reset, forgets it.
  double FailedFrom = kNever;
  // The last error reported, and the pipeline's modification time then (see ReportError).
  std::string ReportedError;
  vtkMTimeType ReportedErrorPipelineTime = 0;
  // Whether the last RequestInformation failed: ParaView asks for data even then, and that
  // request must fail too (quietly: its error has been said).
  bool InformationFailed = false;
};

vtkShallowWaterBase::vtkShallowWaterBase()
  : ManningCoefficient(0.0)
  , Gravity(9.81)
  , CourantNumber(0.45)
  , FixedTimeStep(0.0)
  , Scheme(0)
  , BoundaryWest(0)
  , BoundaryEast(0)
  , BoundarySouth(0)
  , BoundaryNorth(0)
  , BoundaryWestDischarge(0)
  , BoundaryEastDischarge(0)
  , BoundarySouthDischarge(0)
  , BoundaryNorthDischarge(0)
  , BoundaryWestLevel(0)
  , BoundaryEastLevel(0)
  , BoundarySouthLevel(0)
  , BoundaryNorthLevel(0)
  , Device(nullptr)
  , Precision(SINGLE)
  , EndTime(20.0)
  , OutputInterval(0.5)
  , Internals(new vtkInternals)
{
  this->SetDevice("auto");
  this->SetNumberOfOutputPorts(1);
  // The engine's warnings about the launch-shape cache (one it cannot write: every run would
  // tune again) reach the user as VTK warnings; set once for the process.
  static const bool launchWarningsShown = []
  {
    swe::setLaunchWarningHandler([](const std::string& message)
      { vtkOutputWindowDisplayWarningText(("Shallow Water: " + message + "\n").c_str()); });
    return true;
  }();
  (void)launchWarningsShown;
  for (const char* name : swe::kFrameArrayNames)
    this->Internals->CellArrays->AddArray(name, true);
  // Another choice of arrays makes the same frame again, from the same simulation.
  this->Internals->CellArrays->AddObserver(
    vtkCommand::ModifiedEvent, this, &vtkShallowWaterBase::Modified);
}

vtkDataArraySelection* vtkShallowWaterBase::GetCellArraySelection()
{
  return this->Internals->CellArrays;
}

vtkShallowWaterBase::~vtkShallowWaterBase()
{
  delete this->Internals;
  delete[] this->Device;
}

void vtkShallowWaterBase::PhysicsChanged()
{
  this->Internals->Timeline.reset();
  this->Internals->FailedFrom = kNever;
  this->Modified();
}

// Each physics setter: store, and restart only when the value really changed (ParaView pushes
// every property on Apply).
#define vtkShallowWaterPhysicsSetter(name, type)                                                   \
  void vtkShallowWaterBase::Set##name(type value)                                                  \
  {                                                                                                \
    if (this->name != value)                                                                       \
    {                                                                                              \
      this->name = value;                                                                          \
      this->PhysicsChanged();                                                                      \
    }                                                                                              \
  }
vtkShallowWaterPhysicsSetter(ManningCoefficient, double);
vtkShallowWaterPhysicsSetter(Gravity, double);
vtkShallowWaterPhysicsSetter(CourantNumber, double);
vtkShallowWaterPhysicsSetter(FixedTimeStep, double);
vtkShallowWaterPhysicsSetter(Scheme, int);
vtkShallowWaterPhysicsSetter(BoundaryWest, int);
vtkShallowWaterPhysicsSetter(BoundaryEast, int);
vtkShallowWaterPhysicsSetter(BoundarySouth, int);
vtkShallowWaterPhysicsSetter(BoundaryNorth, int);
vtkShallowWaterPhysicsSetter(BoundaryWestDischarge, double);
vtkShallowWaterPhysicsSetter(BoundaryEastDischarge, double);
vtkShallowWaterPhysicsSetter(BoundarySouthDischarge, double);
vtkShallowWaterPhysicsSetter(BoundaryNorthDischarge, double);
vtkShallowWaterPhysicsSetter(BoundaryWestLevel, double);
vtkShallowWaterPhysicsSetter(BoundaryEastLevel, double);
vtkShallowWaterPhysicsSetter(BoundarySouthLevel, double);
vtkShallowWaterPhysicsSetter(BoundaryNorthLevel, double);
vtkShallowWaterPhysicsSetter(Precision, int);
#undef vtkShallowWaterPhysicsSetter

void vtkShallowWaterBase::SetDevice(const char* device)
{
  const std::string value = device ? device : "auto";
  if (this->Device && value == this->Device)
    return;
  delete[] this->Device;
  this->Device = new char[value.size() + 1];
  std::copy(value.c_str(), value.c_str() + value.size() + 1, this->Device);
  this->PhysicsChanged();
}

void vtkShallowWaterBase::SetEndTime(double t)
{
  if (this->EndTime != t)
  {
    this->EndTime = t;
    this->Modified();
  }
}

void vtkShallowWaterBase::SetOutputInterval(double interval)
{
  if (this->OutputInterval == interval)
    return;
  this->OutputInterval = interval;
  if (this->Internals->Timeline && std::isfinite(interval) && interval > 0)
  {
    try
    {
      // (finishes the advance to the next frame a GPU started: that can fail like any advance)
      this->Internals->Timeline->setOutputInterval(interval);
    }
    catch (const swe::Error& e)
    {
      this->Internals->Timeline.reset(); // the next request starts afresh
      vtkErrorMacro(<< e.what());
    }
  }
  this->Modified();
}

void vtkShallowWaterBase::Reset()
{
  this->PhysicsChanged();
}

vtkStringArray* vtkShallowWaterBase::GetAvailableDevices()
{
  vtkInternals& internals = *this->Internals;
  if (!internals.DevicesListed)
  {
    internals.DevicesListed = true;
    internals.Devices->InsertNextValue("auto");
    try
    {
      for (const auto& device : swe::listDevices())
        internals.Devices->InsertNextValue(device.label());
    }
    catch (const swe::Error& e)
    {
      vtkErrorMacro(<< e.what());
    }
  }
  return internals.Devices;
}

swe::SimulationParameters vtkShallowWaterBase::CheckedParameters(vtkInformationVector** inputVector,
  bool inputDataReady,
  double origin[3],
  swe::DeviceInfo* device)
{
  swe::requireFinite(this->EndTime, "EndTime");
  swe::requireFinite(this->OutputInterval, "OutputInterval");
  if (this->EndTime < 0)
    throw swe::Error("EndTime must be >= 0 s, got " + swe::formatValue(this->EndTime));
  if (!(this->OutputInterval > 0))
    throw swe::Error("OutputInterval must be > 0 s, got " + swe::formatValue(this->OutputInterval));
  if (this->EndTime / this->OutputInterval > kMaxOutputTimes)
    throw swe::Error("EndTime / OutputInterval gives more than a million output times: "
                     "raise OutputInterval");
  int resolution[2] = { 0, 0 };
  double cellSize = 0;
  this->DescribeGrid(inputVector, inputDataReady, resolution, cellSize, origin);
  swe::SimulationParameters params;
  params.nx = resolution[0];
  params.ny = resolution[1];
  params.dx = cellSize;
  params.gravity = this->Gravity;
  params.manning = this->ManningCoefficient;
  params.cfl = this->CourantNumber;
  params.fixedDt = this->FixedTimeStep;
  params.device = this->Device ? this->Device : "auto";
  if (this->Precision != SINGLE && this->Precision != DOUBLE)
    throw swe::Error(
      "Precision must be 0 (single) or 1 (double), got " + std::to_string(this->Precision));
  params.precision = this->Precision == DOUBLE ? swe::Precision::Double : swe::Precision::Single;
  const auto& schemes = swe::schemeNames();
  if (this->Scheme < 0 || this->Scheme >= static_cast<int>(schemes.size()))
    throw swe::Error("Scheme must be between 0 and " + std::to_string(schemes.size() - 1) +
                     ", got " + std::to_string(this->Scheme));
  params.scheme = static_cast<swe::Scheme>(this->Scheme);
  const int types[4] = {
    this->BoundaryWest, this->BoundaryEast, this->BoundarySouth, this->BoundaryNorth
  };
  const double discharges[4] = { this->BoundaryWestDischarge,
    this->BoundaryEastDischarge,
    this->BoundarySouthDischarge,
    this->BoundaryNorthDischarge };
  const double levels[4] = { this->BoundaryWestLevel,
    this->BoundaryEastLevel,
    this->BoundarySouthLevel,
    this->BoundaryNorthLevel };
  for (int side = 0; side < 4; ++side)
  {
    const std::string& sideName = swe::sideNames()[side];
    const auto& kinds = swe::boundaryTypeNames();
    if (types[side] < 0 || types[side] >= static_cast<int>(kinds.size()))
      throw swe::Error("the " + sideName + " boundary type must be between 0 and " +
                       std::to_string(kinds.size() - 1) + ", got " + std::to_string(types[side]));
    const auto type = static_cast<swe::BoundaryType>(types[side]);
    params.boundaries[side].type = type;
    // Each side keeps a discharge and a level; only its type's one means something.
    if (type == swe::BoundaryType::Inflow)
    {
      swe::requireFinite(discharges[side], "the " + sideName + " boundary discharge");
      params.boundaries[side].value = discharges[side];
    }
    else if (type == swe::BoundaryType::FixedLevel)
    {
      swe::requireFinite(levels[side], "the " + sideName + " boundary level");
      params.boundaries[side].value = levels[side];
    }
  }
  // Before the initial state is built on the host, and before the pipeline is told the extent.
  // (with the host memory the frames and checkpoints will hold: a grid too large for this
  // machine is refused here, with the numbers, rather than killed by the OOM killer later)
  const std::uint64_t real = params.precision == swe::Precision::Double ? 8 : 4;
  const swe::DeviceInfo checked = swe::Simulation::check(params,
    false,
    { { "frames", swe::frameArrayBytesPerCell(real) },
      { "checkpoints", swe::Timeline::hostBytesPerCell(params.precision) } });
  if (device)
    *device = checked;
  return params;
}

int vtkShallowWaterBase::RequestInformation(vtkInformation*,
  vtkInformationVector** inputVector,
  vtkInformationVector* outputVector)
{
  // Everything is checked here so that a bad value shows up at once, with its name.
  swe::SimulationParameters params;
  double origin[3] = { 0, 0, 0 };
  try
  {
    // (Output Arrays is checked in RequestData, where a refused name can be dropped)
    params = this->CheckedParameters(inputVector, false, origin);
  }
  catch (const swe::Error& e)
  {
    // Said once, here; the request succeeds with an empty extent and the data request that
    // follows gives an empty output marked ABORTED. A failed request would have the executive
    // repeat the error after ours, once per request.
    this->Internals->InformationFailed = true;
    this->ReportError(e.what());
    const int empty[6] = { 0, -1, 0, -1, 0, -1 };
    vtkInformation* outInfo = outputVector->GetInformationObject(0);
    outInfo->Set(vtkStreamingDemandDrivenPipeline::WHOLE_EXTENT(), empty, 6);
    outInfo->Remove(vtkStreamingDemandDrivenPipeline::TIME_STEPS());
    outInfo->Remove(vtkStreamingDemandDrivenPipeline::TIME_RANGE());
    return 1;
  }
  this->Internals->InformationFailed = false;

  vtkInformation* outInfo = outputVector->GetInformationObject(0);
  const int extent[6] = { 0, params.nx, 0, params.ny, 0, 0 };
  outInfo->Set(vtkStreamingDemandDrivenPipeline::WHOLE_EXTENT(), extent, 6);
  const double spacing[3] = { params.dx, params.dx, params.dx };
  outInfo->Set(vtkDataObject::SPACING(), spacing, 3);
  outInfo->Set(vtkDataObject::ORIGIN(), origin, 3);

  const long last = this->OutputIndex(this->EndTime);
  std::vector<double> times(last + 1);
  for (long k = 0; k <= last; ++k)
    times[k] = static_cast<double>(k) * this->OutputInterval; // as swe::Timeline::outputTime
  outInfo->Set(
    vtkStreamingDemandDrivenPipeline::TIME_STEPS(), times.data(), static_cast<int>(times.size()));
  const double range[2] = { times.front(), times.back() };
  outInfo->Set(vtkStreamingDemandDrivenPipeline::TIME_RANGE(), range, 2);
  return 1;
}

int vtkShallowWaterBase::RequestData(vtkInformation*,
  vtkInformationVector** inputVector,
  vtkInformationVector* outputVector)
{
  vtkInformation* outInfo = outputVector->GetInformationObject(0);
  vtkImageData* output = vtkImageData::GetData(outInfo);
  vtkInternals& internals = *this->Internals;
  if (internals.InformationFailed)
  {
    // (the executive asks for information again after any change, so this request belongs to
    // the state whose information failed; its error has been said)
    this->SetAbortOutput(true); // an empty output marked ABORTED: run again next time
    return 1;
  }
  // The output time from which this request's run fails, once the checks have passed.
  double failsFrom = kNever;

  try
  {
    // Checked on every request: ParaView may ask for data even after RequestInformation failed.
    double origin[3] = { 0, 0, 0 };
    swe::DeviceInfo device;
    const swe::SimulationParameters params =
      this->CheckedParameters(inputVector, true, origin, &device);
    const swe::FrameArraySelection selection = SelectedArrays(internals.CellArrays);
    // A new input, or one whose data turned out to have another grid than the run's (the grid
    // RequestInformation saw came from the pipeline information): a new run.
    if (this->InitialStateChanged(inputVector) ||
        (internals.Timeline && !SameGrid(internals.Timeline->simulation().parameters(), params)))
    {
      internals.Timeline.reset();
      internals.FailedFrom = kNever;
    }
    // The latest output time at or before the requested time, as a reader would answer.
    double requested = 0;
    if (outInfo->Has(vtkStreamingDemandDrivenPipeline::UPDATE_TIME_STEP()))
      requested = outInfo->Get(vtkStreamingDemandDrivenPipeline::UPDATE_TIME_STEP());
    const double endTime = std::max(0.0, this->EndTime);
    requested = std::min(std::max(requested, 0.0), endTime);
    const double target = static_cast<double>(this->OutputIndex(requested)) * this->OutputInterval;
    if (target >= internals.FailedFrom)
    {
      // Its error was reported; an empty output marked ABORTED, which asks to run again next time.
      this->SetAbortOutput(true);
      return 1;
    }
    failsFrom = target;

    struct ClearProgressText // also when the run fails
    {
      vtkAlgorithm* Algorithm;
      ~ClearProgressText() { this->Algorithm->SetProgressText(nullptr); }
    } clear{ this };
    if (!internals.Timeline)
    {
      // The first run on a device, scheme, precision and grid size times launch shapes (for
      // about 3 s): the progress bar says so, shape by shape. The shape found goes to the run,
      // which then does not resolve it again.
      swe::SimulationParameters run = params;
      if (swe::launchTuningNeeded(params, device))
        run.launch = swe::resolveLaunchShape(params,
          device,
          [this](double fraction, const std::string& text)
          {
            this->SetProgressText(text.c_str());
            this->UpdateProgress(fraction);
          }).text();
      swe::InitialState initial = this->MakeInitialState(run, inputVector);
      if (NothingMoves(initial, run))
        vtkWarningMacro(<< "the domain starts dry everywhere and no water enters it, so nothing "
                           "will move: set Initial Water Level above the terrain somewhere, "
                           "choose a Depth or Free Surface Array, or make a side an Inflow or "
                           "Water level boundary");
      internals.Timeline = std::make_unique<swe::Timeline>(run, initial, this->OutputInterval);
      internals.Arrays.Bed = nullptr;
    }
    swe::Timeline& timeline = *internals.Timeline;
    const double start = timeline.time();
    const double span = std::fabs(target - start);
    // A late animation time (a source added while the animation stands at the end) can mean a
    // long run: the progress bar says where it is going.
    const std::string progressText =
      "Shallow Water: simulating to t = " + swe::formatValue(target) + " s";
    this->SetProgressText(progressText.c_str());
    this->UpdateProgress(0.0);
    const double steppingBefore = timeline.steppingSeconds();
    const double checkpointsBefore = timeline.checkpointSeconds();
    const bool reached = timeline.seek(target,
      [&](double t)
      {
        if (span > 0)
          this->UpdateProgress(std::min(1.0, std::fabs(t - start) / span));
        return !this->CheckAbort();
      });
    if (!reached)
    {
      // Aborted (CheckAbort set AbortOutput): the executive empties the output and marks it
      // ABORTED, so the next request runs on from the consistent state the seek stopped at,
      // instead of the partial frame standing as the requested one. The abort is honoured: left
      // set, the flag would abort every later request at once.
      this->SetAbortExecute(0);
      return 1;
    }
    const auto outputStart = std::chrono::steady_clock::now();
    // On a GPU the steps to the next output time (what Play asks for next) run while this frame's
    // output is made; the next request waits for them (Timeline::output). A CPU device would
    // take the cores the output pass uses.
    const double lastOutput =
      static_cast<double>(this->OutputIndex(endTime)) * this->OutputInterval;
    const bool stepAhead = device.type != "CPU" && target < lastOutput;
    // The image is filled while the state reaches the host.
    swe::FrameImage frame(timeline.simulation(), output, origin, &internals.Arrays, selection);
    const swe::StateView view = timeline.output(stepAhead ? lastOutput : 0.0,
      [&](const swe::StateView& state, const swe::RowsWait& waitForRows)
      { frame.fill(state, waitForRows); });
    // Where this frame's time went (for users and for the frame-overhead benchmark): stepping,
    // checkpoints, and making the output (download and VTK arrays).
    swe::addFrameTimings(output,
      timeline.steppingSeconds() - steppingBefore,
      timeline.checkpointSeconds() - checkpointsBefore,
      std::chrono::duration<double>(std::chrono::steady_clock::now() - outputStart).count());
    output->GetInformation()->Set(vtkDataObject::DATA_TIME_STEP(), view.time);
    this->UpdateProgress(1.0);
  }
  catch (const swe::Error& e)
  {
    this->RequestDataFailed(e.what(), failsFrom);
    return 1;
  }
  catch (const std::bad_alloc&)
  {
    this->RequestDataFailed("out of host memory for this simulation: use fewer cells", failsFrom);
    return 1;
  }
  internals.ReportedError.clear();
  return 1;
}

void vtkShallowWaterBase::RequestDataFailed(const char* message, double from)
{
  vtkInternals& internals = *this->Internals;
  // A run that failed (a blow-up, a lost device) cannot continue: start afresh next time.
  internals.Timeline.reset();
  DropUnknownArrays(internals.CellArrays);
  internals.FailedFrom = std::min(internals.FailedFrom, from);
  // No partial frame: the executive empties the output and marks it ABORTED, which asks to run
  // again next time. The request itself succeeds: a failed one stops ParaView's .pvd writer
  // (WriteTimeSteps) from ever asking for another time step, and it loops forever.
  this->SetAbortOutput(true);
  this->ReportError(message);
}

void vtkShallowWaterBase::ReportError(const char* message)
{
  vtkInternals& internals = *this->Internals;
  // ParaView may ask several times in one update (for each view, for data after information):
  // said once. After any property or upstream change, a new attempt says its error again.
  const vtkMTimeType pipelineTime = PipelineTime(this);
  if (message == internals.ReportedError && pipelineTime == internals.ReportedErrorPipelineTime)
    return;
  internals.ReportedError = message;
  internals.ReportedErrorPipelineTime = pipelineTime;
  vtkErrorMacro(<< message);
}

long vtkShallowWaterBase::OutputIndex(double t) const
{
  // (1e-9: an output time computed as k * OutputInterval maps back to k despite round-off)
  return static_cast<long>(std::floor(t / this->OutputInterval + 1e-9));
}

void vtkShallowWaterBase::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "ManningCoefficient: " << this->ManningCoefficient << "\n";
  os << indent << "Gravity: " << this->Gravity << "\n";
  os << indent << "CourantNumber: " << this->CourantNumber << "\n";
  os << indent << "FixedTimeStep: " << this->FixedTimeStep << "\n";
  os << indent << "Scheme: " << this->Scheme << "\n";
  os << indent << "Boundaries (W, E, S, N): " << this->BoundaryWest << " " << this->BoundaryEast
     << " " << this->BoundarySouth << " " << this->BoundaryNorth << "; discharges "
     << this->BoundaryWestDischarge << " " << this->BoundaryEastDischarge << " "
     << this->BoundarySouthDischarge << " " << this->BoundaryNorthDischarge << "; levels "
     << this->BoundaryWestLevel << " " << this->BoundaryEastLevel << " " << this->BoundarySouthLevel
     << " " << this->BoundaryNorthLevel << "\n";
  os << indent << "Device: " << (this->Device ? this->Device : "(none)") << "\n";
  os << indent << "Precision: " << (this->Precision == DOUBLE ? "double" : "single") << "\n";
  os << indent << "EndTime: " << this->EndTime << "\n";
  os << indent << "OutputInterval: " << this->OutputInterval << "\n";
  os << indent << "CellArraySelection:\n";
  this->Internals->CellArrays->PrintSelf(os, indent.GetNextIndent());
}
