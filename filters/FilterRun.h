#pragma once
// The simulation behind a Shallow Water filter's outputs and what its pipeline requests remember:
// the timeline, where runs failed, and the error last said. vtkShallowWaterBase checks the
// properties and delegates each request's run here.
#include "DiagnosticsTable.h"
#include "FrameArrays.h"
#include "FrameReadings.h"
#include "Partition.h"
#include "RankExchange.h"
#include "Simulation.h"
#include "Timeline.h"

#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>

#include <vtkType.h> // for vtkMTimeType

class vtkAlgorithm;
class vtkImageData;

namespace swe
{
struct FrameTimings;

// What one data request asks for, its properties checked.
struct FrameRequest
{
  SimulationParameters params;
  DeviceInfo device; // the device params run on
  double origin[3] = { 0, 0, 0 };
  FrameArraySelection selection; // "Output Arrays"
  double outputInterval = 0;
  double time = 0;       // the output time of the frame
  double lastOutput = 0; // the last output time
  // Under ParaView's parallel engine: this rank's piece of the grid (the cells of its update
  // extent); none when the whole grid is asked for.
  std::optional<Block> piece;
  // A frame of an earlier run the new run continues from (the solver's Restart Frame).
  vtkImageData* restartFrom = nullptr;
};

class FilterRun
{
public:
  // The initial state for the parameters of a new run (whose launch shape is resolved, and
  // whose grid is the whole grid): of the whole grid, or of block's cells when given.
  using InitialStateMaker = std::function<InitialState(SimulationParameters&, const Block* block)>;

  // algorithm: the filter, whose progress bar, abort flag, warnings and errors this uses.
  explicit FilterRun(vtkAlgorithm* algorithm);
  ~FilterRun();

  // Drops the run (a change of physics or input, Reset): the next request starts from t = 0 and
  // tries the output times that failed again.
  void restart();
  // Whether any rank says yes, where a run is split among ranks (collective then); else yes.
  bool onAnyRank(bool yes) const;
  // A request's checks (make), where the pipeline splits the grid among ranks (split) on every
  // rank before any waits on another: an error on one fails every rank with its message, and
  // ranks that read other inputs (other parameters: a Series table, gauge points, a terrain's
  // grid) are refused; otherwise make() alone. Collective when split.
  FrameRequest checkedOnEveryRank(bool split, const std::function<FrameRequest()>& make);
  // Whether there is a run and its grid (or, split among ranks, this rank's piece) is not the
  // request's.
  bool runsOnOtherGrid(const FrameRequest& request) const;
  // Whether a run failed at or before output time t (a blow-up recurs at the same step): the
  // request fails at once, without replaying from t = 0 or saying the error again.
  bool failedBy(double t) const { return t >= failedFrom_; }
  // Output times change, the state stays. Throws swe::Error (finishing the advance to the next
  // frame a GPU started can fail like any advance), dropping the run.
  void setOutputInterval(double interval);

  // Makes output the frame at request.time: starts a run if there is none, seeks to the time
  // with progress and abort, fills the output while the state reaches the host (on a GPU, the
  // steps towards the next output time run meanwhile). When the user aborts, the frame is the
  // state where the seek stopped, at that time (its data time), and aborted() says so until
  // the next frame: the filter then has the next update run again. Throws swe::Error,
  // std::bad_alloc.
  void makeFrame(const FrameRequest& request,
    const InitialStateMaker& makeInitialState,
    vtkImageData* output);
  // Whether the last frame made is the one where an abort stopped the run.
  bool aborted() const { return aborted_; }
  // After a data request failed (in the run to output time from, if finite): drops the run, has
  // the output emptied and marked ABORTED, and reports the error once.
  void failed(const std::string& message, double from);
  // The run's gauge samples so far (none without a run or gauges): what the live state and the
  // frames output so far passed through. Waits for nothing.
  const GaugeRecord& gauges() const;
  // Where the run's gauges stand, metres from the grid's corner (none without a run).
  std::vector<std::array<double, 2>> gaugeSites() const;
  // The run's outputs so far, a row each (none without a run).
  const DiagnosticsHistory& diagnostics() const { return diagnostics_; }
  // Whether this rank's tables (gauges, diagnostics) hold the run's rows: ParaView's client
  // appends the rows of every rank's table, so a split run gives them on its rank 0 alone (the
  // others' tables have the columns and no rows).
  bool holdsTableRows() const { return !ranks_ || !partition_ || ranks_->rank() == 0; }
  // Reports message as an error, unless the same error was reported for the same pipeline state
  // (ParaView asks again within one update): each error appears once.
  void reportError(const std::string& message);
  // A request succeeded: the next error is said even if it is the last one again.
  void succeeded()
  {
    reportedError_.clear();
    status_.clear();
  }
  // Why the last request gave no frame (an abort: where the run stopped and how to go on; or the
  // error said), for the monitor; empty after a frame.
  const std::string& status() const { return status_; }

private:
  void start(const FrameRequest& request, const InitialStateMaker& makeInitialState);
  // The new run goes on from frame's state, time and step count (its flood maps and infiltration
  // too): the solver's Restart Frame, which must lie before the last output time.
  void continueFrom(vtkImageData& frame, const SimulationParameters& params, double lastOutput);
  // The timeline's checkpoint limits: a split run's the same on every rank (collective then).
  Timeline::Limits checkpointLimits(const SimulationParameters& params) const;
  // What start() does on every rank of a split run: the plan split, and the initial state of
  // this rank's block; each rank's errors agreed, so that all fail together.
  InitialState startSplit(const FrameRequest& request,
    const InitialStateMaker& makeInitialState,
    SimulationPlan& plan);
  void reportTuning(double fraction, const std::string& text);
  bool seek(double target);
  // A split run's output: this rank's piece placed in the grid, its field data the whole run's
  // (collective).
  void placePiece(vtkImageData* output) const;
  // Fills output; the timeline's counters before the seek (stepping and checkpoint seconds,
  // steps) give the frame's timings.
  void fill(const FrameRequest& request,
    vtkImageData* output,
    const FrameTimings& before,
    bool mayStepAhead = true);

  vtkAlgorithm* algorithm_;
  // ParaView's ranks, once a request asked for a piece (made on all ranks together), and the
  // run's split among them.
  std::unique_ptr<RankExchange> ranks_;
  std::optional<Partition> partition_;
  std::string splitDevices_; // "rank 0: name; rank 1: name..." of a split run
  std::unique_ptr<Timeline> timeline_;
  // The last output's arrays: its Bed is shared by the Timeline's later outputs, the others
  // are refilled by the next output where no consumer still holds them.
  FrameArrays arrays_;
  ReliefCache relief_;             // of the run's bed
  DiagnosticsHistory diagnostics_; // of this run
  // The water balance's initial volume [m^3] and the cells rain falls on, where the run keeps it.
  double balanceInitial_ = 0;
  RainedCells balanceRainedCells_;
  // Requests for this output time or later failed in this run: they fail at once, for ParaView's
  // .pvd writer asks again for a time step that failed until it succeeds. restart() forgets it.
  double failedFrom_ = std::numeric_limits<double>::infinity();
  // The last error reported, and the pipeline's modification time then (see reportError).
  std::string reportedError_;
  std::string status_;
  bool aborted_ = false;
  vtkMTimeType reportedErrorPipelineTime_ = 0;
};
} // namespace swe
