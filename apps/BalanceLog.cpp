#include "BalanceLog.h"

#include "AtomicFile.h"
#include "Error.h"
#include "LaunchedRanks.h"

#include <array>
#include <cstdio>
#include <iomanip>
#include <sstream>

namespace swe::cli
{
BalanceLog::BalanceLog(const SimulationParameters& params, const std::string& outDir)
  : params_(params)
{
  if (!on() || outDir.empty() || !printsReports()) // (one file: rank 0's, of the sums)
    return;
  csvPath_ = outDir + "/balance.csv";
  csv_ = "time,steps,stored,initial,rain,inflow,outflow,infiltration,error,relative_error\n";
}

void BalanceLog::start(const Simulation& simulation,
  const RainedCells& rainedCells,
  RankExchange* ranks)
{
  if (!on())
    return;
  rainedCells_ = rainedCells;
  ranks_ = ranks;
  initial_ = closingInitialVolume(simulation.downloadState(), params_, rainedCells_);
}

void BalanceLog::record(const Simulation& simulation)
{
  if (!on())
    return;
  last_ = waterBalanceOf(simulation.downloadState(), params_, initial_, rainedCells_);
  WaterBalance& b = last_;
  if (ranks_)
  {
    double* volumes[] = { &b.stored, &b.initial, &b.rain, &b.inflow, &b.outflow, &b.infiltration };
    std::array<double, 6> sums{};
    for (std::size_t k = 0; k < sums.size(); ++k)
      sums[k] = *volumes[k];
    ranks_->sumOverRanks(sums.data(), static_cast<int>(sums.size()));
    for (std::size_t k = 0; k < sums.size(); ++k)
      *volumes[k] = sums[k];
  }
  if (printsReports())
    std::fprintf(stderr,
      "   balance [m^3]: stored %.10g = initial %.10g + rain %.6g + inflow %.6g - outflow %.6g - "
      "infiltration %.6g %+.3g (relative %.2e)\n",
      b.stored,
      b.initial,
      b.rain,
      b.inflow,
      b.outflow,
      b.infiltration,
      b.error(),
      b.relativeError());
  if (csvPath_.empty())
    return;
  std::ostringstream row;
  row << std::setprecision(17) << b.time << "," << simulation.steps() << "," << b.stored << ","
      << b.initial << "," << b.rain << "," << b.inflow << "," << b.outflow << "," << b.infiltration
      << "," << b.error() << "," << b.relativeError() << "\n";
  csv_ += row.str();
  writeFileAtomically(csvPath_, csv_);
}
} // namespace swe::cli
