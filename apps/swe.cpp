// swe: the command-line face of the engine. devices | run | bench | tune | validate, one file
// each (Subcommands.h); here the command line is parsed and errors become exit codes.
#include "Error.h"
#include "CacheWarnings.h"
#include "LaunchedRanks.h"
#include "Subcommands.h"
#ifdef SWE_WITH_MPI
#include "MpiRankExchange.h"
#endif

#include <CLI/CLI.hpp>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <new>
#include <string>

namespace
{
// code, or 1 where standard output could not be written (a full disk, /dev/full): a script
// reading the RESULT line would find none, and the exit code would say all went well.
int withOutputWritten(int code)
{
  errno = 0;
  std::cout.flush();
  if (std::fflush(stdout) == 0 && !std::ferror(stdout) && std::cout.good())
    return code;
  std::cerr << "swe: error: cannot write to standard output"
            << (errno != 0 ? std::string(" (") + std::strerror(errno) + ")" : std::string())
            << ": its lines (RESULT ...) are lost\n";
  return code == 0 ? 1 : code;
}
} // namespace

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
    swe::cli::addValidate(app),
    swe::cli::addEnsemble(app) };
  try
  {
    app.parse(argc, argv);
  }
  catch (const CLI::ParseError& e)
  {
    return withOutputWritten(app.exit(e));
  }
  swe::setCacheWarningHandler(
    [](const std::string& message) { std::cerr << "swe: warning: " << message << "\n"; });
  int code = 0;
  try
  {
    for (const auto& subcommand : subcommands)
      if (*subcommand.app)
      {
        code = subcommand.run();
        break;
      }
  }
  catch (const swe::Error& e)
  {
    code = swe::cli::reportFailure(std::string("error: ") + e.what(), 1);
  }
  catch (const std::bad_alloc&)
  {
    code = swe::cli::reportFailure("error: not enough memory: an allocation failed (use fewer "
                                   "cells, or raise the process's memory limit, ulimit -v)",
      1);
  }
  catch (const std::exception& e)
  {
    code = swe::cli::reportFailure(std::string("unexpected error: ") + e.what(), 2);
  }
  return withOutputWritten(code);
}
