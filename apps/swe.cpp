// swe: the command-line face of the engine. devices | run | bench | tune | validate, one file
// each (Subcommands.h); here the command line is parsed and errors become exit codes.
#include "Error.h"
#include "LaunchTuner.h"
#include "LaunchedRanks.h"
#include "Subcommands.h"
#ifdef SWE_WITH_MPI
#include "MpiRankExchange.h"
#endif

#include <CLI/CLI.hpp>

#include <csignal>
#include <exception>
#include <iostream>
#include <string>

int main(int argc, char** argv)
{
  // A file-size limit (ulimit -f) would kill swe mid-write without a word; ignored, the write
  // fails with EFBIG and the run stops naming the file and the limit.
  std::signal(SIGXFSZ, SIG_IGN);
#ifdef SWE_WITH_MPI
  // Under an MPI launcher, swe run splits its grid among the ranks (LaunchedRanks.h).
  const swe::MpiRuntime mpi(&argc, &argv);
#endif
  CLI::App app{ "swe: 2D shallow-water simulation on OpenCL" };
  app.require_subcommand(1);
  // (In the order of swe --help.)
  const swe::cli::Subcommand subcommands[] = { swe::cli::addDevices(app),
    swe::cli::addRun(app),
    swe::cli::addBench(app),
    swe::cli::addTune(app),
    swe::cli::addValidate(app) };
  CLI11_PARSE(app, argc, argv);
  swe::setLaunchWarningHandler(
    [](const std::string& message) { std::cerr << "swe: warning: " << message << "\n"; });
  try
  {
    for (const auto& subcommand : subcommands)
      if (*subcommand.app)
        return subcommand.run();
  }
  catch (const swe::Error& e)
  {
    return swe::cli::reportFailure(std::string("error: ") + e.what(), 1);
  }
  catch (const std::exception& e)
  {
    return swe::cli::reportFailure(std::string("unexpected error: ") + e.what(), 2);
  }
  return 0;
}
