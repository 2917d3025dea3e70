#pragma once
// A simulation seen as a sequence of output times 0, P, 2P, ...: the live run advances through
// every output time in order (so the trajectory does not depend on which frames were asked for),
// and a bounded set of host checkpoints lets a request for an earlier time restart from the
// nearest one instead of replaying from zero. This is what ParaView's time controls drive.
#include "Simulation.h"

#include <chrono>
#include <cstdint>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace swe
{
class Timeline
{
public:
  struct Limits
  {
    std::size_t maxCheckpoints = 16;               // including the one at t = 0
    std::uint64_t maxCheckpointBytes = 1ull << 30; // host memory for all of them: 1 GiB
    // Checkpoints after the one at t = 0 take at most this share of the wall-clock time since
    // the timeline was made (a checkpoint is skipped when the next, costing what the last did,
    // would pass it): on large grids one costs as much as a frame of steps (fresh host memory,
    // or a GPU's bus), and going back replays a little more instead.
    double maxCheckpointShare = 0.05;
    // Where checkpoints are kept; unset: on the device when Simulation::snapshotsFitOnDevice
    // says all of them fit (a GPU: a copy in its memory instead of a bus copy into host memory),
    // else on the host, and on the host from the first device snapshot that fails (out of memory).
    std::optional<SnapshotPlace> checkpointPlace;
  };

  // The simulation made from params (Simulation's constructor of the same arguments: a launch
  // tuning, where one is needed, runs there without progress) ...
  Timeline(const SimulationParameters& params, const InitialState& initial, double outputInterval);
  Timeline(const SimulationParameters& params,
    const InitialState& initial,
    double outputInterval,
    const Limits& limits);
  // ... or from a plan the caller made (Simulation::plan), having shown its tuning.
  Timeline(const SimulationPlan& plan, const InitialState& initial, double outputInterval);
  Timeline(const SimulationPlan& plan,
    const InitialState& initial,
    double outputInterval,
    const Limits& limits);

  // Host bytes a cell of the checkpoints takes at most on a grid large enough for the memory
  // check to matter (states of 0.5 GiB and more): the two that limit() always allows and the
  // spare being prepared (prepareSpare), 3 fields each.
  static std::uint64_t hostBytesPerCell(Precision precision)
  {
    return 3 * 3 * (precision == Precision::Double ? 8 : 4);
  }

  // The run continues from state (a frame of an earlier run at time t0, Simulation::restore): the
  // checkpoints so far are dropped, the first is the state, and a seek before t0 brings it back.
  void startFrom(const Snapshot& state);

  // Output times are k * interval; changing the interval keeps the live state and checkpoints
  // (and first finishes an advance output() started).
  void setOutputInterval(double interval);
  double outputInterval() const { return interval_; }
  double outputTime(std::int64_t k) const { return static_cast<double>(k) * interval_; }

  // Brings the simulation to time t >= 0 (normally an output time): backwards through the
  // nearest checkpoint at or before t (the first, for a t before it: startFrom), forwards
  // through every output time on the way. Returns
  // false if progress asked to abort; the state is then consistent at some earlier time.
  bool seek(double t, const ProgressCallback& progress = {});

  // The live state's h, hu, hv on the host, valid until the next seek: the current checkpoint's
  // memory when the state is at one, else a download. With aheadUntil past the live time, the
  // simulation then starts advancing to the next output time (not past aheadUntil) while the
  // state crosses the bus, and the next seek finishes that advance before anything else: a GPU
  // computes the frame ParaView asks for next (Play) while the host makes this one's output.
  // The trajectory is the same as without (the seek that would have taken those steps takes
  // them). Call seek between two outputs. consume, when given, is called with the state while it
  // reaches the host (Simulation::downloadStateThenAdvance), or with it whole.
  StateView output(double aheadUntil = 0, const StateConsumer& consume = {});

  // The time the next seek starts from: the live time, or the target of an advance output()
  // started (reached before anything else; this does not wait for it).
  double time() const { return ahead_ > 0 ? ahead_ : simulation_->time(); }

  // The simulation; while an advance output() started runs, its time() and state calls wait for
  // that advance, so read the output's time from the StateView.
  const Simulation& simulation() const { return *simulation_; }
  std::size_t checkpointCount() const { return checkpoints_.size(); }
  // The checkpoint on the host the live state is at (just taken, or restored and not advanced),
  // else null: its h, hu, hv are the live fields on the host already, so an output need not
  // download them.
  const Snapshot* currentCheckpoint() const;
  // Where the checkpoints are being kept (Limits::checkpointPlace).
  SnapshotPlace checkpointPlace() const { return place_; }
  // Simulated seconds advanced since construction (replays included): lets tests and users see
  // that going back does not replay from zero.
  double advancedTime() const { return advanced_; }
  // Wall-clock seconds spent stepping (inside Simulation::advanceTo) and taking checkpoints,
  // since construction: what a frame costs in the engine, for the plugin's frame timings.
  double steppingSeconds() const { return steppingSeconds_; }
  // Steps taken in those seconds (replays included): a frame's speed is the steps its request
  // took over the seconds it spent stepping, whatever the frames before it did.
  double steppedSteps() const { return steppedSteps_; }
  double checkpointSeconds() const { return checkpointSeconds_; }

private:
  // The first output time after the live time.
  double nextOutputTime() const;
  // advanceTo(next), timed, then a checkpoint if one is due there.
  bool advance(double next, const ProgressCallback& progress);
  // Finishes an advance output() started, as the seek that would have made it (false if
  // progress asked to abort).
  bool finishAhead(const ProgressCallback& progress);
  void maybeCheckpoint();
  // Host memory for the next checkpoint when no spare is left (states of 16 MiB or more), touched
  // on a thread of its own while the steps run: first touch of fresh memory is the slow part of
  // a host checkpoint on these machines (PERFORMANCE.md). A checkpoint uses it once it is ready.
  void prepareSpare();
  // A snapshot into s in place_, or on the host from now on if the device has no room after all.
  void takeSnapshot(Snapshot& s);
  // How many snapshots (checkpoints and spares) the limits allow.
  std::size_t limit() const;
  // Which of times (ascending, times[0] the first checkpoint's) stay checkpoints under the limits;
  // doubles spacing_
  // as often as that takes.
  std::vector<bool> thin(const std::vector<double>& times);

  std::unique_ptr<Simulation> simulation_;
  double interval_;
  Limits limits_;
  SnapshotPlace place_ = SnapshotPlace::Host;
  std::map<double, Snapshot> checkpoints_;
  std::vector<Snapshot> spares_; // memory of dropped checkpoints, for the next ones
  std::future<std::vector<unsigned char>> prepared_; // prepareSpare()'s memory, once touched
  double spacing_; // minimum simulated time between two kept checkpoints
  double advanced_ = 0;
  double steppedSteps_ = 0;
  double ahead_ = 0; // the target of an advance output() started; 0: none
  double steppingSeconds_ = 0, checkpointSeconds_ = 0;
  // For maxCheckpointShare: when the timeline was made, the seconds the checkpoints after t = 0
  // took, and what the last snapshot cost.
  std::chrono::steady_clock::time_point start_;
  double snapshotSeconds_ = 0, lastSnapshotSeconds_ = 0;
};
} // namespace swe
