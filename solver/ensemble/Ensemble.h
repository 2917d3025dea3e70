#pragma once
// An ensemble: runs of one terrain that differ in their parameters (EnsembleMembers.h), stepped
// side by side on one device (in one OpenCL context, a queue each), each with its own time step, so
// that a member's state has the bits of the same run alone. Their flood maps are folded into
// statistics (EnsembleStatistics.h) at any time the members have reached together.
#include "EnsembleStatistics.h"
#include "InitialState.h"
#include "Parameters.h"
#include "SimulationTypes.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace swe
{
class DeviceContext;
class RankExchange;
class Simulation;

// What one member runs: its parameters and initial state.
struct MemberRun
{
  SimulationParameters params;
  InitialState initial;
};
// Makes member m's run (0-based); called once a member, in order.
using MemberMaker = std::function<MemberRun(int member)>;

// Hears of member m (0-based) at simulated time t while it advances (as Simulation::advanceTo's
// progress: about ten times a second); returning false stops the advance.
using MemberProgress = std::function<bool(int member, double time)>;

// A member's standing: running, or stopped by the error that stopped it.
struct MemberState
{
  bool failed = false;
  std::string failure; // the engine's message, where it failed
  double time = 0;     // the simulated time it reached [s]
  std::int64_t steps = 0;
  WaterBalance balance; // where its parameters keep the balance, at `time`
};

class Ensemble
{
public:
  // Makes the members' simulations, one at a time (a member's initial state lives only while
  // its simulation is made). Each keeps its flood maps. Throws swe::Error before any is made
  // where the members do not fit the device's memory together (naming the count that fits),
  // and for a member whose run the engine refuses (naming the member).
  // With ranks (processes under mpirun, each its own device), member m runs on rank m % ranks
  // (make is called there alone); the calls below are then collective, and every rank throws
  // where one does.
  Ensemble(int members, const MemberMaker& make, RankExchange* ranks = nullptr);
  ~Ensemble();
  Ensemble(const Ensemble&) = delete;
  Ensemble& operator=(const Ensemble&) = delete;

  // Advances every running member to `time`, in rounds: a batch of every member's steps queued
  // before any is waited for, so that a device takes their steps side by side where it can. A
  // member that blows up is stopped, its buffers released and the message kept (state()); the
  // others go on. Every rank then knows every member's state. progress, when given, hears of each
  // member as it goes; returning false from it stops this rank's advance (the members then stand
  // at different times until the next advanceTo), and advanceTo returns false.
  bool advanceTo(double time, const MemberProgress& progress = {});

  // The statistics over the running members' flood maps at the time of the last advance (at rank
  // 0, from every rank's members, folded in the members' order: the bits of one rank's; on the
  // other ranks, its grid and time without maps). Collective.
  EnsembleStatistics statistics() const;

  int members() const { return static_cast<int>(members_.size()); }
  // The time the last advance went to (0 before any).
  double time() const { return target_; }
  int running() const;
  const MemberState& state(int member) const { return states_[member]; }
  // The member's simulation; null where it failed or runs on another rank.
  const Simulation* member(int member) const { return members_[member].get(); }
  Simulation* member(int member) { return members_[member].get(); }
  // The grid every member runs on.
  int nx() const { return nx_; }
  int ny() const { return ny_; }

private:
  bool local(int member) const;
  void makeMembers(const MemberMaker& make);
  // Under mpirun: every rank's members on one grid, rank 0's (collective; throws on every rank
  // where they differ).
  void agreeOnGrid();
  // Member m's simulation, on the grid and device of the members before it (the first makes the
  // context).
  void makeMember(int m, const MemberRun& run);
  // work(), its swe::Error prefixed with the member's name.
  template<class Work>
  static auto namedFor(int m, const Work& work) -> decltype(work());
  void stop(int member, const std::string& failure);
  // Runs work on member m's simulation where it runs here; an error it throws stops the member.
  template<class Work>
  void guardMember(int m, const Work& work);
  // The member's time and steps into its state, and with withBalance its water balance.
  void record(int member, bool withBalance);
  void shareStates();

  RankExchange* ranks_ = nullptr;
  double target_ = 0; // the time the last advance went to
  int nx_ = 0, ny_ = 0;
  // One context for every member: a GPU runs the kernels of one context's queues side by side,
  // and time-slices those of different contexts.
  std::shared_ptr<DeviceContext> context_;
  std::vector<std::unique_ptr<Simulation>> members_;
  std::vector<MemberState> states_;
  std::vector<double> initialVolumes_;
  std::vector<RainedCells> rainedCells_;
};

// Checks that `members` runs of params fit the device's memory side by side, and the host's with
// the maps of `folded` members for the statistics; throws swe::Error with the count that fits
// the device where they do not.
void checkMembersFit(const SimulationParameters& params,
  bool perCellManning,
  int members,
  int folded);
} // namespace swe
