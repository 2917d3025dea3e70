#include "Ensemble.h"

#include "DeviceContext.h"
#include "DeviceLimits.h"
#include "Devices.h"
#include "Error.h"
#include "RankExchange.h"
#include "Simulation.h"
#include "WaterBalance.h"

#include <algorithm>
#include <cstring>

namespace swe
{
namespace
{
// A member's host memory besides its cells': its program, queue and kernels (about 4.5 MB a
// member on PoCL, 100 and 1000 members of 10 x 10 cells, 2-core VM, 2026-12-07).
constexpr std::uint64_t kMemberHostBytes = 5u << 20;

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

// A member's state as bytes, for the other ranks (RankExchange::allGather).
struct ByteWriter
{
  std::vector<unsigned char> bytes;
  template<class T>
  void value(const T& v)
  {
    const auto* p = reinterpret_cast<const unsigned char*>(&v);
    bytes.insert(bytes.end(), p, p + sizeof(T));
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

void checkMembersFit(const SimulationParameters& params,
  bool perCellManning,
  int members,
  int folded)
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
  // The host: one member's run as Simulation::check counts it, the other members' share, each
  // member's program, queue and kernels (kMemberHostBytes, spread over the cells), and the two
  // maps a member the statistics fold keeps (EnsembleFold).
  Simulation::check(params,
    perCellManning,
    { { "the other members",
        (members - 1) * hostBytesPerMemberCell(params, perCellManning, device) },
      { "the members' programs and queues", (members * kMemberHostBytes + cells - 1) / cells },
      { "the members' maps for the statistics", folded * 2 * sizeof(float) } });
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
  if (ranks_)
    agreeOnGrid();
}

void Ensemble::agreeOnGrid()
{
  // Every rank's grid (none where it holds no member), on every rank: each then takes rank 0's
  // (which makes member 1), or refuses the same way where the members' grids differ.
  std::vector<unsigned char> mine(2 * sizeof(int));
  const int grid[2] = { nx_, ny_ };
  std::memcpy(mine.data(), grid, sizeof(grid));
  const auto grids = ranks_->allGather(context_ ? mine : std::vector<unsigned char>());
  int first[2];
  std::memcpy(first, grids.front().data(), sizeof(first));
  for (std::size_t rank = 1; rank < grids.size(); ++rank)
  {
    if (grids[rank].empty())
      continue;
    int other[2];
    std::memcpy(other, grids[rank].data(), sizeof(other));
    if (other[0] != first[0] || other[1] != first[1])
      throw Error("the members on rank " + std::to_string(rank) + " run on " +
                  std::to_string(other[0]) + " x " + std::to_string(other[1]) +
                  " cells and member 1 on " + std::to_string(first[0]) + " x " +
                  std::to_string(first[1]) + ": the members of an ensemble share one grid");
  }
  nx_ = first[0];
  ny_ = first[1];
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
  const bool root = !ranks_ || ranks_->rank() == 0;
  for (int m = 0; m < members(); ++m)
  {
    if (!local(m))
      continue;
    MemberRun run = namedFor(m, [&] { return make(m); });
    run.params.floodMaps = true;
    namedFor(m, [&] { run.params.validate(); });
    if (!context_)
      checkMembersFit(run.params, run.initial.perCellManning(), mine, root ? members() : 0);
    namedFor(m, [&] { makeMember(m, run); });
  }
}

template<class Work>
auto Ensemble::namedFor(int m, const Work& work) -> decltype(work())
{
  try
  {
    return work();
  }
  catch (const Error& e)
  {
    throw Error(memberName(m) + ": " + e.what());
  }
}

void Ensemble::makeMember(int m, const MemberRun& run)
{
  if (!context_)
  {
    nx_ = run.params.nx;
    ny_ = run.params.ny;
  }
  else if (run.params.nx != nx_ || run.params.ny != ny_)
    throw Error("it runs on " + std::to_string(run.params.nx) + " x " +
                std::to_string(run.params.ny) + " cells and the members before it on " +
                std::to_string(nx_) + " x " + std::to_string(ny_) +
                ": the members of an ensemble share one grid");
  SimulationPlan plan = Simulation::plan(run.params, !run.initial.manning.empty());
  if (!context_)
    context_ = shareDevice(plan.device);
  else if (plan.device.index != context_->device.index)
    throw Error("it runs on another device than the members before it: the members of a rank "
                "share one device");
  plan.sharedContext = context_;
  members_[m] = std::make_unique<Simulation>(plan, run.initial);
  rainedCells_[m] = run.initial.rainedCells(run.params.rainZones.size());
  if (run.params.waterBalance)
    initialVolumes_[m] =
      closingInitialVolume(members_[m]->downloadState(), run.params, rainedCells_[m]);
  record(m, true);
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

void Ensemble::record(int member, bool withBalance)
{
  const Simulation& simulation = *members_[member];
  MemberState& state = states_[member];
  state.time = simulation.time();
  state.steps = simulation.steps();
  if (withBalance && simulation.parameters().waterBalance)
    state.balance = waterBalanceOf(simulation.downloadState(),
      simulation.parameters(),
      initialVolumes_[member],
      rainedCells_[member]);
}

bool Ensemble::advanceTo(double time, const MemberProgress& progress)
{
  target_ = time;
  // In rounds: a batch of steps queued for every member on its way (startAdvance), then each
  // waited for in turn, so that the device has every member's batch while the host waits for
  // one. A member whose clock a round did not move finishes alone (advanceTo says why).
  std::vector<int> going;
  for (int m = 0; m < members(); ++m)
    if (members_[m])
      going.push_back(m);
  bool goOn = true;
  while (!going.empty() && goOn)
  {
    std::vector<double> before(going.size());
    for (std::size_t k = 0; k < going.size(); ++k)
      guardMember(going[k],
        [&](Simulation& member)
        {
          before[k] = member.time();
          member.startAdvance(time);
        });
    std::vector<int> still;
    for (std::size_t k = 0; k < going.size(); ++k)
    {
      const int m = going[k];
      guardMember(m,
        [&](Simulation& member)
        {
          if (member.time() == before[k] && before[k] < time)
            member.advanceTo(time);
          const bool landed = member.time() >= time;
          // (the balance, a download of the state, once the member has landed)
          record(m, landed);
          if (!landed)
            still.push_back(m);
          goOn = goOn && (!progress || progress(m, member.time()));
        });
    }
    going = still;
  }
  shareStates();
  return goOn;
}

template<class Work>
void Ensemble::guardMember(int m, const Work& work)
{
  if (!members_[m])
    return;
  try
  {
    work(*members_[m]);
  }
  catch (const Error& e)
  {
    stop(m, e.what());
  }
  catch (const std::bad_alloc&)
  {
    stop(m, "out of host memory");
  }
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
  EnsembleFold fold(nx_, ny_);
  const bool root = !ranks_ || ranks_->rank() == 0;
  // Member after member, in their order (the mean's sum then has the bits of one rank's): under
  // mpirun each member's maps, as the fold keeps them (floats), gathered alone at rank 0, so
  // that no message holds more than one member's.
  for (int m = 0; m < members(); ++m)
  {
    std::vector<unsigned char> bytes;
    if (members_[m])
    {
      members_[m]->download(Field::MaxDepth, depth.data());
      members_[m]->download(Field::ArrivalTime, arrival.data());
      if (!ranks_)
      {
        fold.add(depth.data(), arrival.data());
        continue;
      }
      std::vector<float> maps(depth.begin(), depth.end());
      maps.insert(maps.end(), arrival.begin(), arrival.end());
      const auto* p = reinterpret_cast<const unsigned char*>(maps.data());
      bytes.assign(p, p + maps.size() * sizeof(float));
    }
    if (!ranks_)
      continue;
    for (const auto& part : ranks_->gather(bytes, 0))
      if (root && part.size() == 2 * cells * sizeof(float))
      {
        std::vector<float> maps(2 * cells);
        std::memcpy(maps.data(), part.data(), part.size());
        fold.add(maps.data(), maps.data() + cells);
      }
  }
  if (root)
    return fold.fold(target_);
  EnsembleStatistics none;
  none.nx = nx_;
  none.ny = ny_;
  none.time = target_;
  return none;
}
} // namespace swe
