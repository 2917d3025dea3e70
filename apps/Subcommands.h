#pragma once
// swe's subcommands, one file each: every add function declares its subcommand and options on
// the app and returns what runs it once the command line is parsed. A run returns the exit code
// and throws swe::Error for what the user can fix.
#include <functional>

namespace CLI
{
class App;
}

namespace swe::cli
{
struct Subcommand
{
  CLI::App* app;            // parsed: *app is true when the command line named it
  std::function<int()> run; // reads the options the parse filled in
};

Subcommand addDevices(CLI::App& app);  // DevicesCommand.cpp
Subcommand addRun(CLI::App& app);      // RunCommand.cpp
Subcommand addBench(CLI::App& app);    // BenchCommand.cpp
Subcommand addTune(CLI::App& app);     // TuneCommand.cpp
Subcommand addValidate(CLI::App& app); // ValidateCommand.cpp
Subcommand addEnsemble(CLI::App& app); // EnsembleCommand.cpp
} // namespace swe::cli
