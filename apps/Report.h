#pragma once
// Output shared by swe's subcommands: the SETUP line that run and bench print.
#include "Simulation.h"

#include <string>
#include <utility>
#include <vector>

namespace swe::cli
{
// Seconds by name, in the order they are printed.
using NamedSeconds = std::vector<std::pair<const char*, double>>;

// The SETUP line: a run's fixed cost beyond its steps, part by part, and its share of the run
// (BENCHMARKS.md). state: the initial state built on the host; then the simulation's own parts
// and more; steps and run name the steps the fixed cost is set against and the run they make.
void printSetup(double state,
  const SetupSeconds& setup,
  const NamedSeconds& more,
  const std::string& steps,
  double stepSeconds,
  const std::string& run);
} // namespace swe::cli
