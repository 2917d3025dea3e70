#include "InitialState.h"

#include "Error.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <unistd.h>

namespace swe
{
namespace
{
// Refuses a state the host cannot hold, before the allocation (which could wake the OOM killer
// rather than throw).
int checkHostMemory(int nx, int ny)
{
  if (nx <= 0 || ny <= 0)
    return nx; // an empty state; validate() names the bad size
  const std::uint64_t bytes = 4ull * sizeof(double) * static_cast<std::uint64_t>(nx) * ny;
  const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
  if (pages > 0 && pageSize > 0 && bytes > static_cast<std::uint64_t>(pages) * pageSize / 2)
  {
    std::ostringstream s;
    s << "a " << nx << " x " << ny << " initial state needs " << bytes / (1 << 20)
      << " MiB of host memory, more than half of this machine's "
      << static_cast<std::uint64_t>(pages) * pageSize / (1 << 20) << " MiB";
    throw Error(s.str());
  }
  return nx;
}
} // namespace

InitialState::InitialState(int nx_, int ny_)
  : nx(checkHostMemory(nx_, ny_))
  , ny(ny_)
  , h(cells(), 0.0)
  , hu(cells(), 0.0)
  , hv(cells(), 0.0)
  , bed(cells(), 0.0)
{
}

void InitialState::validate(bool allowDry) const
{
  if (nx <= 0 || ny <= 0)
    throw Error(
      "initial state has an empty grid (" + std::to_string(nx) + " x " + std::to_string(ny) + ")");
  const std::vector<double>* fields[] = { &h, &hu, &hv, &bed };
  const char* names[] = { "depth", "x-momentum", "y-momentum", "bed elevation" };
  for (int f = 0; f < 4; ++f)
    if (fields[f]->size() != cells())
      throw Error(std::string("initial ") + names[f] + " has " + std::to_string(fields[f]->size()) +
                  " values, expected " + std::to_string(cells()));
  if (!manning.empty() && manning.size() != cells())
    throw Error("initial Manning field has " + std::to_string(manning.size()) +
                " values, expected " + std::to_string(cells()));
  for (std::size_t k = 0; k < manning.size(); ++k)
  {
    if (!(manning[k] >= 0) || !std::isfinite(manning[k]))
      throw Error("Manning coefficient must be a finite number >= 0, got " +
                  formatValue(manning[k]) + " at " + cellName(k));
    if (manning[k] > kMaxManning) // the uniform coefficient's range (Parameters.cpp)
      throw Error("Manning coefficient must be in [0, " + formatValue(kMaxManning) +
                  "] s/m^(1/3), got " + formatValue(manning[k]) + " at " + cellName(k));
  }
  for (std::size_t k = 0; k < cells(); ++k)
  {
    // The cell's name only for a message: made for every cell, it took a second at 4096^2.
    const auto cell = [&] { return cellName(k); };
    for (int f = 0; f < 4; ++f)
      if (!std::isfinite((*fields[f])[k]))
        throw Error(std::string("initial ") + names[f] + " is not finite at " + cell());
    if (allowDry ? h[k] < 0 : !(h[k] > 0))
    {
      std::ostringstream s;
      if (allowDry)
        s << "initial depth must be >= 0 everywhere, got " << h[k] << " m at " << cell();
      else
        s << "initial depth must be > 0 everywhere (Lax-Friedrichs has no dry cells: use the "
             "muscl-hllc scheme), got "
          << h[k] << " m at " << cell();
      throw Error(s.str());
    }
  }
}

std::string InitialState::cellName(std::size_t k) const
{
  return "cell (" + std::to_string(x0 + static_cast<int>(k % nx)) + ", " +
         std::to_string(y0 + static_cast<int>(k / nx)) + ")";
}

void InitialState::requireFlatBed() const
{
  for (std::size_t k = 1; k < bed.size(); ++k)
    if (bed[k] != bed[0])
      throw Error("the bed is not flat (" + formatValue(bed[0]) + " m at " + cellName(0) + ", " +
                  formatValue(bed[k]) + " m at " + cellName(k) +
                  ") and Lax-Friedrichs has no terrain: use the muscl-hllc scheme");
}

InitialState makeScenario(Scenario scenario, const SimulationParameters& params)
{
  return makeScenario(scenario, params, 0, 0, params.nx, params.ny);
}

InitialState makeScenario(Scenario scenario,
  const SimulationParameters& params,
  int x0,
  int y0,
  int nx,
  int ny)
{
  InitialState state(nx, ny);
  state.x0 = x0;
  state.y0 = y0;
  const double lx = params.nx * params.dx, ly = params.ny * params.dx;
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i)
    {
      // (Cell (i, j) of the part is (x0 + i, y0 + j) of the grid.)
      const double x = (x0 + i + 0.5) * params.dx, y = (y0 + j + 0.5) * params.dx;
      double depth = 10.0;
      switch (scenario)
      {
        case Scenario::DamBreak:
          // The thesis's dam sits at 100 m of a 500 m basin; keep that fraction on any grid.
          depth = x < 0.2 * lx ? 20.0 : 10.0;
          break;
        case Scenario::RadialDamBreak:
        {
          const double r = std::hypot(x - 0.5 * lx, y - 0.5 * ly);
          depth = r < 0.15 * std::min(lx, ly) ? 20.0 : 10.0;
          break;
        }
        case Scenario::LakeAtRest:
          depth = 10.0;
          break;
        case Scenario::ImmersedBump:
        case Scenario::EmergedBump:
        {
          // SWASHES, scaled so that a domain of any length holds the 25 m case.
          const double xs = x * 25.0 / lx;
          const double z = std::max(0.0, 0.2 - 0.05 * (xs - 10.0) * (xs - 10.0));
          state.bed[state.index(i, j)] = z;
          depth = scenario == Scenario::ImmersedBump ? 0.5 - z : std::max(0.0, 0.1 - z);
          break;
        }
        case Scenario::RitterDryDamBreak:
          depth = x < 0.5 * lx ? 0.005 : 0.0;
          break;
        case Scenario::StokerWetDamBreak:
          depth = x < 0.5 * lx ? 0.005 : 0.001;
          break;
      }
      state.h[state.index(i, j)] = depth;
    }
  return state;
}
} // namespace swe
