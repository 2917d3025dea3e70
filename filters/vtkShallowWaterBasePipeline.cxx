// vtkShallowWaterBase's pipeline requests: the properties checked (PropertyParameters), then
// the run delegated to (FilterRun).
#include "vtkShallowWaterBase.h"
#include "vtkShallowWaterBaseInternals.h"

#include "Error.h"
#include "GaugeMarkers.h"
#include "GaugeTable.h"
#include "OutputArrays.h"
#include "OutputTimes.h"
#include "Partition.h"
#include "PipelineRanks.h"
#include "PropertyParameters.h"

#include <vtkAbstractArray.h>
#include <vtkDataObject.h>
#include <vtkDemandDrivenPipeline.h>
#include <vtkExecutive.h>
#include <vtkFieldData.h>
#include <vtkImageData.h>
#include <vtkInformation.h>
#include <vtkInformationVector.h>
#include <vtkPolyData.h>
#include <vtkStreamingDemandDrivenPipeline.h>
#include <vtkTable.h>

#include <algorithm>
#include <limits>
#include <iomanip>
#include <optional>
#include <sstream>
#include <new>
#include <vector>

namespace
{
// A failed information pass: an empty whole extent and no times, so that the executive neither
// echoes the error nor asks for data.
void SetEmptyInformation(vtkInformation* outInfo)
{
  const int empty[6] = { 0, -1, 0, -1, 0, -1 };
  outInfo->Set(vtkStreamingDemandDrivenPipeline::WHOLE_EXTENT(), empty, 6);
  outInfo->Remove(vtkStreamingDemandDrivenPipeline::TIME_STEPS());
  outInfo->Remove(vtkStreamingDemandDrivenPipeline::TIME_RANGE());
}

// The output's grid: one image cell per simulation cell.
void SetGridInformation(vtkInformation* outInfo,
  const swe::SimulationParameters& params,
  const double origin[3])
{
  const int extent[6] = { 0, params.nx, 0, params.ny, 0, 0 };
  outInfo->Set(vtkStreamingDemandDrivenPipeline::WHOLE_EXTENT(), extent, 6);
  const double spacing[3] = { params.dx, params.dx, params.dx };
  outInfo->Set(vtkDataObject::SPACING(), spacing, 3);
  outInfo->Set(vtkDataObject::ORIGIN(), origin, 3);
}

// This rank's piece of the grid, where ParaView's parallel engine asks each of its processes
// for one (its update extent's cells); none otherwise.
std::optional<swe::Block> RequestedPiece(vtkInformation* outInfo)
{
  if (!outInfo->Has(vtkStreamingDemandDrivenPipeline::UPDATE_NUMBER_OF_PIECES()) ||
      outInfo->Get(vtkStreamingDemandDrivenPipeline::UPDATE_NUMBER_OF_PIECES()) < 2 ||
      swe::pipelineProcesses() < 2 ||
      !outInfo->Has(vtkStreamingDemandDrivenPipeline::UPDATE_EXTENT()))
    return std::nullopt;
  int e[6];
  outInfo->Get(vtkStreamingDemandDrivenPipeline::UPDATE_EXTENT(), e);
  // (Every rank takes this path together, even one asked for the whole grid or for nothing:
  // the partition, gathered from all, then says whether the pieces make a run.)
  return swe::Block{ e[0], e[2], std::max(0, e[1] - e[0]), std::max(0, e[3] - e[2]) };
}

void SetTimeInformation(vtkInformation* outInfo, const std::vector<double>& times)
{
  outInfo->Set(
    vtkStreamingDemandDrivenPipeline::TIME_STEPS(), times.data(), static_cast<int>(times.size()));
  const double range[2] = { times.front(), times.back() };
  outInfo->Set(vtkStreamingDemandDrivenPipeline::TIME_RANGE(), range, 2);
}
} // namespace

swe::SimulationParameters vtkShallowWaterBase::CheckedParameters(vtkInformationVector** inputVector,
  bool inputDataReady,
  double origin[3],
  swe::DeviceInfo* device)
{
  const swe::PropertyValues values = this->SharedPropertyValues();
  swe::checkOutputTimes(values);
  swe::PropertyGrid grid;
  this->DescribeGrid(inputVector, inputDataReady, grid.resolution, grid.cellSize, origin);
  grid.origin[0] = origin[0];
  grid.origin[1] = origin[1];
  swe::SimulationParameters params = swe::propertyParameters(values, grid);
  this->AddInputParameters(params, inputVector, inputDataReady, origin);
  // Before the initial state is built on the host, and before the pipeline is told the extent.
  const swe::DeviceInfo checked = swe::checkFilterRun(params);
  if (device)
    *device = checked;
  return params;
}

swe::FrameRequest vtkShallowWaterBase::CheckedRequest(vtkInformationVector** inputVector,
  vtkInformation* outInfo)
{
  swe::FrameRequest request;
  request.params = this->CheckedParameters(inputVector, true, request.origin, &request.device);
  request.selection = swe::selectedFrameArrays(this->Internals->CellArrays);
  request.outputInterval = this->OutputInterval;
  double requested = 0;
  if (outInfo->Has(vtkStreamingDemandDrivenPipeline::UPDATE_TIME_STEP()))
    requested = outInfo->Get(vtkStreamingDemandDrivenPipeline::UPDATE_TIME_STEP());
  // (a time past either end gets the output time nearest it, as from a reader; NaN is refused)
  request.time = swe::requestedOutputTime(requested, this->EndTime, this->OutputInterval);
  request.lastOutput = swe::lastOutputTime(this->EndTime, this->OutputInterval);
  request.piece = RequestedPiece(outInfo);
  request.restartFrom = this->RestartFrame(inputVector);
  return request;
}

int vtkShallowWaterBase::RequestInformation(vtkInformation*,
  vtkInformationVector** inputVector,
  vtkInformationVector* outputVector)
{
  vtkInformation* outInfo = outputVector->GetInformationObject(0);
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
    this->Internals->Run.reportError(e.what());
    SetEmptyInformation(outInfo);
    return 1;
  }
  this->Internals->InformationFailed = false;
  SetGridInformation(outInfo, params, origin);
  // Under ParaView's parallel engine each rank simulates the piece it is asked for, its halos
  // exchanged with the others (solver/ranks/Partition.h); without this the executive would run the
  // whole grid on rank 0.
  outInfo->Set(vtkAlgorithm::CAN_PRODUCE_SUB_EXTENT(), 1);
  const std::vector<double> times = swe::outputTimes(this->EndTime, this->OutputInterval);
  this->WarnOfEndTimeBetweenOutputs(times.back());
  SetTimeInformation(outInfo, times);
  SetTimeInformation(outputVector->GetInformationObject(1), times); // (the gauges)
  SetTimeInformation(outputVector->GetInformationObject(2), times); // (the diagnostics)
  SetTimeInformation(outputVector->GetInformationObject(3), times); // (the gauge markers)
  return 1;
}

void vtkShallowWaterBase::WarnOfEndTimeBetweenOutputs(double lastOutput)
{
  const std::array<double, 2> asked{ this->EndTime, this->OutputInterval };
  // (within the round-off outputIndex allows)
  if (this->EndTime - lastOutput <= 1e-9 * this->OutputInterval)
  {
    this->Internals->WarnedOutputTimes = { -1, -1 };
    return;
  }
  // (once for each pair; in ParaView's parallel engine, by its first process alone)
  if (asked == this->Internals->WarnedOutputTimes || swe::pipelineRank() != 0)
    return;
  this->Internals->WarnedOutputTimes = asked;
  std::ostringstream s;
  s << std::setprecision(12) << "End Time " << this->EndTime
    << " s is not a whole number of Output Intervals (" << this->OutputInterval
    << " s): the last output, where the simulation stops, is at " << lastOutput << " s"
    << (lastOutput == 0 ? " (nothing is simulated)" : "") << "; set End Time to ";
  if (lastOutput > 0)
    s << lastOutput << " or ";
  s << lastOutput + this->OutputInterval << " s, or an Output Interval that divides it";
  vtkWarningMacro(<< s.str());
}

int vtkShallowWaterBase::FillOutputPortInformation(int port, vtkInformation* info)
{
  if (port == 1 || port == 2) // the gauges, the diagnostics
  {
    info->Set(vtkDataObject::DATA_TYPE_NAME(), "vtkTable");
    return 1;
  }
  if (port == 3) // the gauge markers
  {
    info->Set(vtkDataObject::DATA_TYPE_NAME(), "vtkPolyData");
    return 1;
  }
  return this->Superclass::FillOutputPortInformation(port, info);
}

namespace
{
// An output asked for alone (the gauges' table by a Line Chart, the gauge markers by the map,
// whichever of the map's outputs updates first) asks for the frame of its time: the flood's
// port may still hold the time of its own last request. (A request with no time at the flood's
// port takes the gauges' table's.)
void TakeAskedTime(vtkInformation* request, vtkInformationVector* outputs)
{
  const int fromPort = request->Has(vtkExecutive::FROM_OUTPUT_PORT())
                         ? request->Get(vtkExecutive::FROM_OUTPUT_PORT())
                         : 0;
  vtkInformation* flood = outputs->GetInformationObject(0);
  vtkInformation* asked = outputs->GetInformationObject(std::max(fromPort, 1));
  const auto updateTime = vtkStreamingDemandDrivenPipeline::UPDATE_TIME_STEP();
  if ((fromPort >= 1 || !flood->Has(updateTime)) && asked->Has(updateTime))
    flood->Set(updateTime, asked->Get(updateTime));
}
} // namespace

int vtkShallowWaterBase::RequestData(vtkInformation* requestInfo,
  vtkInformationVector** inputVector,
  vtkInformationVector* outputVector)
{
  vtkInformation* outInfo = outputVector->GetInformationObject(0);
  TakeAskedTime(requestInfo, outputVector);
  swe::FilterRun& run = this->Internals->Run;
  // The flood of the time asked for is made already (ProcessRequest): only the records' outputs
  // are filled again, on this rank alone, as ranks may differ in which outputs they ask for.
  if (outInfo->Get(vtkDemandDrivenPipeline::DATA_NOT_GENERATED()))
    return this->FillRecordOutputs(this->Internals->RecordsUpTo, outputVector);
  // (the executive asks for information again after any change, so this request belongs to the
  // state whose information failed; its error has been said. Split among ranks, the others,
  // whose information may have passed (a node's memory), wait for its checks: it joins them)
  const bool split = RequestedPiece(outInfo).has_value();
  if (this->Internals->InformationFailed && !split)
    return this->AbortOutputQuietly();
  // The output time from which this request's run fails, once the checks have passed.
  double failsFrom = std::numeric_limits<double>::infinity();
  try
  {
    // Checked on every request: ParaView may ask for data even after RequestInformation failed.
    // (Split among ranks, every rank checks before any waits on another: a rank that failed
    // alone here left the others waiting for ever.)
    const swe::FrameRequest request =
      run.checkedOnEveryRank(split, [&] { return this->CheckedRequest(inputVector, outInfo); });
    // A new input, or one whose data turned out to have another grid than the run's (the grid
    // RequestInformation saw came from the pipeline information): a new run.
    // (A split run restarts on every rank if on any.)
    if (run.onAnyRank(this->InitialStateChanged(inputVector) || run.runsOnOtherGrid(request)))
      run.restart();
    if (run.failedBy(request.time))
      return this->AbortOutputQuietly(); // its error was reported
    failsFrom = request.time;
    auto makeInitialState = [&](swe::SimulationParameters& params, const swe::Block* block)
    { return this->MakeInitialState(params, block, inputVector); };
    run.makeFrame(request, makeInitialState, vtkImageData::GetData(outInfo));
    // (up to the frame's time: a continued run asked for a time before its Restart Frame shows
    // the frame, and the tables with it)
    vtkInformation* frameInfo = vtkImageData::GetData(outInfo)->GetInformation();
    const double frameTime = frameInfo->Has(vtkDataObject::DATA_TIME_STEP())
                               ? frameInfo->Get(vtkDataObject::DATA_TIME_STEP())
                               : request.time;
    const double rowsUpTo = run.holdsTableRows() ? std::max(request.time, frameTime)
                                                 : -std::numeric_limits<double>::infinity();
    this->FillRecordOutputs(rowsUpTo, outputVector);
    // A DEM's coordinate reference system (from ParaView's GDAL reader) goes with the outputs,
    // for GIS output (vtkShallowWaterGeoTiffWriter).
    if (this->GetNumberOfInputPorts() > 0)
      if (vtkDataObject* input = vtkDataObject::GetData(inputVector[0]))
        if (vtkAbstractArray* crs = input->GetFieldData()->GetAbstractArray("MAP_PROJECTION"))
          vtkImageData::GetData(outInfo)->GetFieldData()->AddArray(crs);
  }
  catch (const swe::Error& e)
  {
    if (this->Internals->InformationFailed)
      return this->AbortOutputQuietly();
    return this->RequestDataFailed(e.what(), failsFrom);
  }
  catch (const std::bad_alloc&)
  {
    return this->RequestDataFailed(
      "out of host memory for this simulation: use fewer cells", failsFrom);
  }
  // (an aborted frame keeps its message, for the monitor, until a frame is made whole)
  if (!run.aborted())
    run.succeeded();
  return 1;
}

int vtkShallowWaterBase::FillRecordOutputs(double rowsUpTo, vtkInformationVector* outputVector)
{
  swe::FilterRun& run = this->Internals->Run;
  this->Internals->RecordsUpTo = rowsUpTo;
  swe::fillGaugeTable(run.gauges(), rowsUpTo, vtkTable::GetData(outputVector, 1));
  run.diagnostics().fill(rowsUpTo, vtkTable::GetData(outputVector, 2));
  // (every rank holds every gauge's record: the first rank's points, not one set a rank)
  swe::fillGaugeMarkers(
    swe::pipelineRank() == 0 ? run.gaugeSites() : std::vector<std::array<double, 2>>{},
    vtkImageData::GetData(outputVector, 0)->GetOrigin(),
    run.gauges(),
    rowsUpTo,
    vtkPolyData::GetData(outputVector, 3));
  return 1;
}

vtkTypeBool vtkShallowWaterBase::ProcessRequest(vtkInformation* request,
  vtkInformationVector** inputVector,
  vtkInformationVector* outputVector)
{
  // Asked for another output than the flood (a Line Chart's table, a map's gauge markers) at
  // the time of the flood made last, the flood stays as it is: the run need not make it again
  // (on every rank of a split run at once). Not where the flood is older than a change of the
  // pipeline (a property applied): that output would be filled from the run before the change
  // (no gauge markers), and its display, updated first, would keep it.
  const auto notGenerated = vtkDemandDrivenPipeline::REQUEST_DATA_NOT_GENERATED();
  if (request->Has(notGenerated) && request->Has(vtkExecutive::FROM_OUTPUT_PORT()) &&
      request->Get(vtkExecutive::FROM_OUTPUT_PORT()) >= 1 && !this->Internals->Run.aborted())
  {
    vtkInformation* asked =
      outputVector->GetInformationObject(request->Get(vtkExecutive::FROM_OUTPUT_PORT()));
    vtkInformation* floodInfo = outputVector->GetInformationObject(0);
    vtkImageData* flood = vtkImageData::GetData(floodInfo);
    auto* executive = vtkDemandDrivenPipeline::SafeDownCast(this->GetExecutive());
    const bool current = flood && executive && flood->GetMTime() > executive->GetPipelineMTime();
    const auto updateTime = vtkStreamingDemandDrivenPipeline::UPDATE_TIME_STEP();
    if (current && flood->GetNumberOfCells() > 0 && floodInfo->Has(updateTime) &&
        asked->Has(updateTime) && floodInfo->Get(updateTime) == asked->Get(updateTime))
      floodInfo->Set(vtkDemandDrivenPipeline::DATA_NOT_GENERATED(), 1);
  }
  return this->Superclass::ProcessRequest(request, inputVector, outputVector);
}

int vtkShallowWaterBase::ComputePipelineMTime(vtkInformation* request,
  vtkInformationVector** inInfoVec,
  vtkInformationVector* outInfoVec,
  int requestFromOutputPort,
  vtkMTimeType* mtime)
{
  // An aborted frame is of another time than the one asked for, which VTK (and what follows the
  // filter) would not ask it for again: the next update of the frame makes it. (Not the tables'
  // own updates, which ParaView makes within the same update, after the frame's.)
  if (this->Internals->Run.aborted() && requestFromOutputPort <= 0)
    this->Modified();
  return this->Superclass::ComputePipelineMTime(
    request, inInfoVec, outInfoVec, requestFromOutputPort, mtime);
}

int vtkShallowWaterBase::AbortOutputQuietly()
{
  this->SetAbortOutput(true); // an empty output marked ABORTED: run again next time
  return 1;
}

int vtkShallowWaterBase::RequestDataFailed(const char* message, double from)
{
  // Python's OutputArrays lists only the arrays ParaView last heard of, so a name that is left in
  // the selection would never be unset: names refused are dropped, after RequestInformation (the
  // change makes the next update ask for information again).
  swe::dropUnknownFrameArrays(this->Internals->CellArrays);
  this->Internals->Run.failed(message, from);
  return 1;
}
