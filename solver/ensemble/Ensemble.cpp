#include "Ensemble.h"

#include "DeviceContext.h"
#include "DeviceLimits.h"
#include "Devices.h"
#include "Error.h"
#include "Simulation.h"
#include "RankExchange.h"
#include "WaterBalance.h"

#include <algorithm>
#include <cstring>

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
// A member's state and maps as bytes, for the other ranks (RankExchange::gather).
struct ByteWriter
{
  std::vector<unsigned char> bytes;
  template<class T>
  void value(const T& v)
  {
    const auto* p = reinterpret_cast<const unsigned char*>(&v);
    bytes.insert(bytes.end(), p, p + sizeof(T));
  }
  void values(const std::vector<double>& v)
  {
    const auto* p = reinterpret_cast<const unsigned char*>(v.data());
    bytes.insert(bytes.end(), p, p + v.size() * sizeof(double));
  }
  void state(int member, const MemberState& s)
  {
    value(member);
    value(static_cast<unsigned char>(s.failed));
    value(s.time);
    value(s.steps);
    value(s.balance);
    value(static_cast<std::uint64_t>(s.failure.size()));
    bytes.insert(bytes.end(), s.failure.begin(), s.failure.end());
  }
};

struct ByteReader
{
  const std::vector<unsigned char>& bytes;
  std::size_t at = 0;
  bool done() const { return at >= bytes.size(); }
  template<class T>
  T value()
  {
    T v;
    std::memcpy(&v, bytes.data() + at, sizeof(T));
    at += sizeof(T);
    return v;
  }
  std::vector<double> values(std::size_t count)
  {
    std::vector<double> v(count);
    std::memcpy(v.data(), bytes.data() + at, count * sizeof(double));
    at += count * sizeof(double);
    return v;
  }
  MemberState state()
  {
    MemberState s;
    s.failed = value<unsigned char>() != 0;
    s.time = value<double>();
    s.steps = value<std::int64_t>();
    s.balance = value<WaterBalance>();
    const auto length = value<std::uint64_t>();
    s.failure.assign(bytes.begin() + at, bytes.begin() + at + length);
    at += length;
    return s;
  }
};
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

Ensemble::Ensemble(int members, const MemberMaker& make, RankExchange* ranks)
  : ranks_(ranks)
  , members_(members)
  , states_(members)
  , initialVolumes_(members, 0.0)
  , rainedCells_(members)
{
  // (a member refused on one rank stops every rank, none left waiting in a collective)
  runAgreed(ranks_, [&] { makeMembers(make); });
}

bool Ensemble::local(int member) const
{
  return !ranks_ || member % ranks_->ranks() == ranks_->rank();
}

void Ensemble::makeMembers(const MemberMaker& make)
{
  int mine = 0;
  for (int m = 0; m < members(); ++m)
    mine += local(m) ? 1 : 0;
  for (int m = 0; m < members(); ++m)
  {
    if (!local(m))
      continue;
    MemberRun run = make(m);
    run.params.floodMaps = true;
    if (!context_)
    {
      checkMembersFit(run.params, run.initial.perCellManning(), mine);
      nx_ = run.params.nx;
      ny_ = run.params.ny;
    }
    else if (run.params.nx != nx_ || run.params.ny != ny_)
      throw Error(memberName(m) + " runs on " + std::to_string(run.params.nx) + " x " +
                  std::to_string(run.params.ny) + " cells and the members before it on " +
                  std::to_string(nx_) + " x " + std::to_string(ny_) +
                  ": the members of an ensemble share one grid");
    try
    {
      SimulationPlan plan = Simulation::plan(run.params, !run.initial.manning.empty());
      if (!context_)
        context_ = shareDevice(plan.device);
      else if (plan.device.index != context_->device.index)
        throw Error("it runs on another device than the members before it: the members of a "
                    "rank share one device");
      plan.sharedContext = context_;
      members_[m] = std::make_unique<Simulation>(plan, run.initial);
    }
    catch (const Error& e)
    {
      throw Error(memberName(m) + ": " + e.what());
    }
    rainedCells_[m] = run.initial.rainedCells(run.params.rainZones.size());
    if (run.params.waterBalance)
      initialVolumes_[m] =
        closingInitialVolume(members_[m]->downloadState(), run.params, rainedCells_[m]);
    record(m);
  }
  // (rank 0 makes member 1, so it knows the grid; the others may hold no member)
  if (ranks_)
  {
    double grid[2] = { static_cast<double>(nx_), static_cast<double>(ny_) };
    ranks_->maxOverRanks(grid, 2);
    nx_ = static_cast<int>(grid[0]);
    ny_ = static_cast<int>(grid[1]);
  }
}

Ensemble::~Ensemble() = default;

int Ensemble::running() const
{
  return static_cast<int>(
    std::count_if(states_.begin(), states_.end(), [](const MemberState& s) { return !s.failed; }));
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

bool Ensemble::advanceTo(double time, const MemberProgress& progress)
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
  bool going = true;
  for (int m = 0; m < count && going; ++m)
  {
    if (!members_[m])
      continue;
    try
    {
      going = members_[m]->advanceTo(time, [&](double t) { return !progress || progress(m, t); });
      record(m);
    }
    catch (const Error& e)
    {
      stop(m, e.what());
    }
  }
  shareStates();
  return going;
}

void Ensemble::shareStates()
{
  if (!ranks_)
    return;
  ByteWriter out;
  for (int m = 0; m < members(); ++m)
    if (local(m))
      out.state(m, states_[m]);
  for (const auto& bytes : ranks_->allGather(out.bytes))
  {
    ByteReader in{ bytes };
    while (!in.done())
    {
      const int m = in.value<int>();
      states_.at(m) = in.state();
    }
  }
}

EnsembleStatistics Ensemble::statistics() const
{
  const std::size_t cells = static_cast<std::size_t>(nx_) * ny_;
  std::vector<double> depth(cells), arrival(cells);
  // Each rank's members' maps, gathered at rank 0 and folded there in the members' order (the
  // mean's sum then has the bits of one rank's).
  std::vector<std::vector<double>> maps(members());
  ByteWriter out;
  double time = 0;
  for (int m = 0; m < members(); ++m)
    if (members_[m])
    {
      members_[m]->download(Field::MaxDepth, depth.data());
      members_[m]->download(Field::ArrivalTime, arrival.data());
      maps[m] = depth;
      maps[m].insert(maps[m].end(), arrival.begin(), arrival.end());
      out.value(m);
      out.values(maps[m]);
      time = members_[m]->time();
    }
  if (ranks_)
  {
    double latest = time;
    ranks_->maxOverRanks(&latest, 1);
    time = latest;
    for (const auto& bytes : ranks_->gather(out.bytes, 0))
    {
      ByteReader in{ bytes };
      while (!in.done())
      {
        const int m = in.value<int>();
        maps.at(m) = in.values(2 * cells);
      }
    }
    if (ranks_->rank() != 0)
      maps.assign(maps.size(), {});
  }
  EnsembleFold fold(nx_, ny_);
  for (const auto& map : maps)
    if (!map.empty())
      fold.add(map.data(), map.data() + cells);
  return fold.fold(time);
}
} // namespace swe
