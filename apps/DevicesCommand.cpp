// swe devices: the OpenCL devices, one line each; when there are none, why (noDeviceProblem).
#include "Devices.h"
#include "Subcommands.h"

#include <CLI/CLI.hpp>

#include <iostream>
#include <string>

namespace swe::cli
{
namespace
{
int listDevices()
{
  const auto devices = swe::listDevices();
  if (devices.empty())
    std::cout << "no OpenCL device found: " << swe::noDeviceProblem() << "\n";
  for (const auto& d : devices)
    std::cout << d.summary() << "\n";
  return 0;
}
} // namespace

Subcommand addDevices(CLI::App& app)
{
  return { app.add_subcommand("devices", "list the OpenCL devices"), listDevices };
}
} // namespace swe::cli
