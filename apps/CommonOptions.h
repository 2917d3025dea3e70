#pragma once
// The options every simulating subcommand shares (grid, device, precision, scheme, boundaries,
// launch, build options), parsed into the engine's parameters.
#include "Parameters.h"

#include <string>
#include <vector>

namespace CLI
{
class App;
}

namespace swe::cli
{
struct CommonOptions
{
  SimulationParameters params;
  std::string precision = "single";
  std::string scenario = "dambreak";
  std::string scheme = "lax-friedrichs";
  std::vector<std::string> boundaries;
  std::string skipDry = "on";

  // A subcommand of app with the shared options, before its own (the order of its help).
  CLI::App* addSubcommand(CLI::App& app, const std::string& name, const std::string& description);
  // The parameters named, checked; throws swe::Error on a bad value.
  SimulationParameters resolve();
};
} // namespace swe::cli
