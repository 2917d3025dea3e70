#pragma once
// swe run --balance: the water balance (WaterBalance.h) at every output, as a line on stderr and a
// row of balance.csv in --out, from the run's first state on (t = 0, or the state of --restart).
// balance.csv is written whole at every output (under a temporary name, then renamed), so that it
// is complete up to the last output whatever stops the run.
#include "RankExchange.h"
#include "Simulation.h"
#include "WaterBalance.h"

#include <string>

namespace swe::cli
{
class BalanceLog
{
public:
  // Nothing unless the run keeps the balance. outDir empty: no file.
  BalanceLog(const SimulationParameters& params, const std::string& outDir);
  // The run's first state: what the balance starts from; rainedCells: of its initial state
  // (InitialState::rainedCells). ranks: a run split among them (each holds its block's
  // balance; the lines and the file give the sums), or null.
  void start(const Simulation& simulation, const RainedCells& rainedCells, RankExchange* ranks);
  // The state at an output: a line, a row.
  void record(const Simulation& simulation);
  // The last recorded balance's error over all the water the run has had (0 before any).
  double relativeError() const { return last_.relativeError(); }
  bool on() const { return params_.waterBalance; }
  // What it started from (start): the frames' field data reports the same balance.
  double initialVolume() const { return initial_; }
  const RainedCells& rainedCells() const { return rainedCells_; }

private:
  SimulationParameters params_;
  std::string csvPath_; // empty: no file
  std::string csv_;     // its text so far
  double initial_ = 0;
  RainedCells rainedCells_;
  RankExchange* ranks_ = nullptr;
  WaterBalance last_;
};
} // namespace swe::cli
