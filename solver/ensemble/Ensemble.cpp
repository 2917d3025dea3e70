#include "Ensemble.h"

#include "DeviceContext.h"
#include "DeviceLimits.h"
#include "Devices.h"
#include "Error.h"
#include "Simulation.h"
#include "WaterBalance.h"

#include <algorithm>

namespace swe
{
namespace
{
std::string memberName(int member)
{
  return "member " + std::to_string(member + 1);
}

// The host memory each member beyond the first takes: its buffers where the device is the host's
// CPU, and the copy its downloads go through.
std::uint64_t hostBytesPerMemberCell(const SimulationParameters& params,
  bool perCellManning,
  const DeviceInfo& device)
{
  const std::uint64_t real = params.precision == Precision::Double ? 8 : 4;
  const std::uint64_t download = stateFields(params).size() * real;
  return download + (device.type == "CPU" ? deviceBytesPerCell(params, perCellManning) : 0);
}
} // namespace

void checkMembersFit(const SimulationParameters& params, bool perCellManning, int members)
{
  if (members < 1)
    throw Error("an ensemble of " + std::to_string(members) + " members: give at least one member");
  const DeviceInfo device = selectDevice(params.device);
  const std::uint64_t cells = static_cast<std::uint64_t>(params.nx) * params.ny;
  const std::uint64_t perMember = cells * deviceBytesPerCell(params, perCellManning);
  const std::uint64_t fit = perMember > 0 ? device.globalMemory / perMember : members;
  if (static_cast<std::uint64_t>(members) > fit)
    throw Error(std::to_string(members) + " members of " + std::to_string(params.nx) + " x " +
                std::to_string(params.ny) + " cells need " + gib(members * perMember) +
                " of device memory but '" + device.name + "' has " + gib(device.globalMemory) +
                ": " + std::to_string(fit) + " members fit; run fewer members or cells");
  // The host: one member's run as Simulation::check counts it, the other members' share, and
  // the two maps a member the statistics fold gathers (EnsembleFold).
  Simulation::check(params,
    perCellManning,
    { { "the other members",
        (members - 1) * hostBytesPerMemberCell(params, perCellManning, device) },
      { "the members' maps for the statistics", members * 2 * sizeof(float) } });
}

Ensemble::Ensemble(int members, const MemberMaker& make)
{
  for (int m = 0; m < members; ++m)
  {
    MemberRun run = make(m);
    run.params.floodMaps = true;
    if (m == 0)
    {
      checkMembersFit(run.params, run.initial.perCellManning(), members);
      nx_ = run.params.nx;
      ny_ = run.params.ny;
    }
    else if (run.params.nx != nx_ || run.params.ny != ny_)
      throw Error(memberName(m) + " runs on " + std::to_string(run.params.nx) + " x " +
                  std::to_string(run.params.ny) + " cells and member 1 on " + std::to_string(nx_) +
                  " x " + std::to_string(ny_) + ": the members of an ensemble share one grid");
    try
    {
      SimulationPlan plan = Simulation::plan(run.params, !run.initial.manning.empty());
      if (!context_)
        context_ = shareDevice(plan.device);
      else if (plan.device.index != context_->device.index)
        throw Error("it runs on another device than member 1: the members share one device");
      plan.sharedContext = context_;
      members_.push_back(std::make_unique<Simulation>(plan, run.initial));
    }
    catch (const Error& e)
    {
      throw Error(memberName(m) + ": " + e.what());
    }
    rainedCells_.push_back(run.initial.rainedCells(run.params.rainZones.size()));
    initialVolumes_.push_back(
      run.params.waterBalance
        ? closingInitialVolume(members_.back()->downloadState(), run.params, rainedCells_.back())
        : 0.0);
    states_.emplace_back();
    record(m);
  }
}

Ensemble::~Ensemble() = default;

int Ensemble::running() const
{
  return static_cast<int>(
    std::count_if(members_.begin(), members_.end(), [](const auto& s) { return s != nullptr; }));
}

void Ensemble::stop(int member, const std::string& failure)
{
  states_[member].failed = true;
  states_[member].failure = failure;
  members_[member].reset();
}

void Ensemble::record(int member)
{
  const Simulation& simulation = *members_[member];
  MemberState& state = states_[member];
  state.time = simulation.time();
  state.steps = simulation.steps();
  if (simulation.parameters().waterBalance)
    state.balance = waterBalanceOf(simulation.downloadState(),
      simulation.parameters(),
      initialVolumes_[member],
      rainedCells_[member]);
}

bool Ensemble::advanceTo(double time, const std::function<bool(int landed, int of)>& progress)
{
  const int count = members();
  for (int m = 0; m < count; ++m)
    if (members_[m])
      try
      {
        members_[m]->startAdvance(time);
      }
      catch (const Error& e)
      {
        stop(m, e.what());
      }
  int landed = 0;
  for (int m = 0; m < count; ++m)
  {
    if (!members_[m])
      continue;
    try
    {
      members_[m]->advanceTo(time);
      record(m);
    }
    catch (const Error& e)
    {
      stop(m, e.what());
    }
    if (progress && !progress(++landed, count))
      return false;
  }
  return true;
}

EnsembleStatistics Ensemble::statistics() const
{
  EnsembleFold fold(nx_, ny_);
  const std::size_t cells = static_cast<std::size_t>(nx_) * ny_;
  std::vector<double> depth(cells), arrival(cells);
  double time = 0;
  for (const auto& member : members_)
    if (member)
    {
      member->download(Field::MaxDepth, depth.data());
      member->download(Field::ArrivalTime, arrival.data());
      fold.add(depth.data(), arrival.data());
      time = member->time();
    }
  return fold.fold(time);
}
} // namespace swe
