#pragma once
// The options every simulating subcommand shares (grid, device, precision, scheme, boundaries,
// launch, build options), parsed into the engine's parameters.
#include "ParameterTable.h"
#include "Parameters.h"

#include <initializer_list>
#include <map>

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
  // The options of ParameterTable's parameters named, each with its flag, what it does, its
  // range, hint and default from the table.
  void addScalarOptions(CLI::App* cmd, std::initializer_list<ScalarId> ids);
  // The parameters named, checked; throws swe::Error on a bad value.
  SimulationParameters resolve();

  // ParameterTable's parameters given on the command line, set into params by resolve().
  std::map<ScalarId, double> scalars;
};
} // namespace swe::cli
