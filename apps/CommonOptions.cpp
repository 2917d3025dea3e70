#include "CommonOptions.h"

#include "Error.h"

#include <CLI/CLI.hpp>

namespace swe::cli
{
CLI::App* CommonOptions::addSubcommand(CLI::App& parent,
  const std::string& name,
  const std::string& description)
{
  CLI::App* app = parent.add_subcommand(name, description);
  app->add_option("--nx", params.nx, "cells along x")->capture_default_str();
  app->add_option("--ny", params.ny, "cells along y")->capture_default_str();
  app->add_option("--device", params.device, "auto, an index from 'swe devices', or part of a name")
    ->capture_default_str();
  app->add_option("--precision", precision, "single or double")->capture_default_str();
  app->add_option("--scheme", scheme, "lax-friedrichs, muscl-hllc or muscl-hancock")
    ->capture_default_str();
  app->add_option("--boundary",
    boundaries,
    "SIDE=TYPE[:VALUE], repeatable; sides west, east, south, north; types wall (default), "
    "open, inflow:Q (m^2/s into the domain), level:ETA (water surface, m)");
  app
    ->add_option("--launch",
      params.launch,
      "step kernel launch: auto (tuned once, cached), default, GXxGYxROWS such as 128x2x8, "
      "that with s2 appended (two steps a launch; Lax-Friedrichs), or rowsN such as rows16 "
      "(few work-items of N whole rows each; CPU devices)")
    ->capture_default_str();
  app
    ->add_option("--skip-dry",
      skipDry,
      "on: leave out of each step the tiles where no water is or can come (MUSCL schemes, "
      "without rain), with the same results bit for bit; off: update every cell")
    ->capture_default_str();
  addScalarOptions(app, { ScalarId::ExchangeInterval });
  app->add_option("--build-options", params.buildOptions, "extra OpenCL build options");
  return app;
}

void CommonOptions::addScalarOptions(CLI::App* cmd, std::initializer_list<ScalarId> ids)
{
  for (ScalarId id : ids)
  {
    const ScalarParameter& parameter = scalarParameter(id);
    CLI::Option* option = cmd->add_option_function<double>(
      parameter.flag,
      [this, id](double value) { scalars[id] = value; },
      std::string(parameter.doc) + ": " + rangeText(parameter) + " (" + parameter.hint + ")");
    option->default_str(formatValue(parameter.defaultValue));
    if (parameter.whole)
      option->type_name("INT");
  }
}

SimulationParameters CommonOptions::resolve()
{
  // (each checked before it is set, where a whole number would be cut to one)
  for (const auto& [id, value] : scalars)
  {
    requireInRange(scalarParameter(id), value);
    scalarParameter(id).set(params, value);
  }
  params.precision = precisionFromName(precision);
  params.scheme = schemeFromName(scheme);
  // (a side given twice took the last without a word)
  for (std::size_t k = 0; k < boundaries.size(); ++k)
    for (std::size_t earlier = 0; earlier < k; ++earlier)
      if (lowercase(boundaries[k].substr(0, boundaries[k].find('='))) ==
          lowercase(boundaries[earlier].substr(0, boundaries[earlier].find('='))))
        throw Error("--boundary " + boundaries[earlier] + " and --boundary " + boundaries[k] +
                    " set one side twice: give each side once");
  for (const auto& b : boundaries)
    parseBoundary(b, params);
  if (skipDry != "on" && skipDry != "off")
    throw Error("--skip-dry must be on or off, got '" + skipDry + "'");
  params.skipDry = skipDry == "on";
  // (the engine takes an empty selector as auto, which --device '' would choose unsaid)
  if (params.device.find_first_not_of(" \t") == std::string::npos)
    throw Error("--device '" + params.device +
                "' names no device: give a device index or name from 'swe devices', or auto");
  params.validate();
  return params;
}
} // namespace swe::cli
