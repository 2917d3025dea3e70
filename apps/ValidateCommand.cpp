// swe validate: the scheme against exact solutions. The SWASHES dam breaks (L = 10 m, dam at
// 5 m, h_l = 5 mm, t = 6 s) as a strip of 4 rows: the L1 error of the depth; or the radial dam
// break's symmetries and azimuthal spread.
#include "AnalyticSolutions.h"
#include "AtomicFile.h"
#include "CommonOptions.h"
#include "Error.h"
#include "InitialState.h"
#include "Simulation.h"
#include "Subcommands.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <memory>
#include <string>
#include <vector>

namespace swe::cli
{
namespace
{
struct ValidateOptions
{
  CommonOptions common;
  std::string caseName = "stoker", profilePath;
};

// The radial dam break (a 200 m square basin of nx x nx cells, t = 3 s, before any wave reaches a
// wall): symmetry under x<->y and under a rotation by 90 degrees, and the azimuthal spread: the
// mean difference between the radial depth profiles along an axis and along a diagonal (bilinear
// samples every half cell), relative to the wave's height; the grid's anisotropy, which an exact
// solution would not have.
int validateRadial(CommonOptions& options)
{
  options.params.ny = options.params.nx;
  options.params.dx = 200.0 / options.params.nx;
  const SimulationParameters params = options.resolve();
  const int n = params.nx;
  Simulation simulation(params, makeScenario(Scenario::RadialDamBreak, params));
  const double mass0 = simulation.diagnostics().mass;
  simulation.advanceTo(3.0);
  std::vector<double> h(static_cast<std::size_t>(n) * n);
  simulation.download(Field::Depth, h.data());
  auto at = [&](int i, int j) { return h[static_cast<std::size_t>(j) * n + i]; };
  double transpose = 0, rotation = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
    {
      transpose = std::max(transpose, std::fabs(at(i, j) - at(j, i)));
      rotation = std::max(rotation, std::fabs(at(i, j) - at(n - 1 - j, i)));
    }
  // Depth at a point (in cell units, cell centres at k + 0.5), bilinear.
  auto sample = [&](double x, double y)
  {
    const double fx = x - 0.5, fy = y - 0.5;
    const int i = std::clamp(static_cast<int>(std::floor(fx)), 0, n - 2);
    const int j = std::clamp(static_cast<int>(std::floor(fy)), 0, n - 2);
    const double a = fx - i, b = fy - j;
    return (1 - a) * (1 - b) * at(i, j) + a * (1 - b) * at(i + 1, j) + (1 - a) * b * at(i, j + 1) +
           a * b * at(i + 1, j + 1);
  };
  double spread = 0;
  int samples = 0;
  const double c = 0.5 * n, d = 1.0 / std::sqrt(2.0);
  for (double r = 0; r < 0.5 * n - 2; r += 0.5, ++samples)
    spread += std::fabs(sample(c + r, c) - sample(c + r * d, c + r * d));
  spread /= samples;
  const double height =
    *std::max_element(h.begin(), h.end()) - *std::min_element(h.begin(), h.end());
  std::printf("RESULT case=radial scheme=%s precision=%s nx=%d transpose=%.3e rotation=%.3e "
              "azimuthal_spread=%.3e mass_rel_drift=%.3e\n",
    schemeName(params.scheme).c_str(),
    precisionName(params.precision).c_str(),
    n,
    transpose,
    rotation,
    spread / height,
    std::fabs(simulation.diagnostics().mass - mass0) / mass0);
  return 0;
}

// Ritter's (dry bed) or Stoker's (wet bed) dam break; the profile, if asked, as CSV.
int validateDamBreak(CommonOptions& options, bool ritter, const std::string& profilePath)
{
  options.params.ny = 4;
  options.params.dx = 10.0 / options.params.nx;
  const SimulationParameters params = options.resolve();
  const auto scenario = ritter ? Scenario::RitterDryDamBreak : Scenario::StokerWetDamBreak;
  const double tEnd = 6.0, x0 = 5.0, hLeft = 0.005, hRight = 0.001;
  Simulation simulation(params, makeScenario(scenario, params));
  const double mass0 = simulation.diagnostics().mass;
  simulation.advanceTo(tEnd);
  std::vector<double> h(static_cast<std::size_t>(params.nx) * params.ny);
  simulation.download(Field::Depth, h.data());
  std::ostringstream profile;
  profile.precision(10);
  profile << "x,h,exact\n";
  double l1 = 0;
  for (int i = 0; i < params.nx; ++i)
  {
    const double x = (i + 0.5) * params.dx;
    const double exact = ritter ? ritterDepth(x, tEnd, x0, hLeft, params.gravity)
                                : stokerDepth(x, tEnd, x0, hLeft, hRight, params.gravity);
    l1 += std::fabs(h[i] - exact) * params.dx;
    profile << x << "," << h[i] << "," << exact << "\n";
  }
  if (!profilePath.empty())
    writeFileAtomically(profilePath, profile.str());
  const double mass = simulation.diagnostics().mass;
  std::printf(
    "RESULT case=%s scheme=%s precision=%s nx=%d l1=%.6e steps=%lld mass_rel_drift=%.3e\n",
    ritter ? "ritter" : "stoker",
    schemeName(params.scheme).c_str(),
    precisionName(params.precision).c_str(),
    params.nx,
    l1,
    static_cast<long long>(simulation.steps()),
    std::fabs(mass - mass0) / mass0);
  return 0;
}

int validate(ValidateOptions& options)
{
  if (options.caseName == "radial")
    return validateRadial(options.common);
  const bool ritter = options.caseName == "ritter";
  if (!ritter && options.caseName != "stoker")
    throw Error(
      "unknown validation case '" + options.caseName + "' (known: ritter, stoker, radial)");
  return validateDamBreak(options.common, ritter, options.profilePath);
}
} // namespace

Subcommand addValidate(CLI::App& app)
{
  const auto options = std::make_shared<ValidateOptions>();
  CLI::App* cmd = options->common.addSubcommand(
    app, "validate", "L1 error of a SWASHES dam break (t = 6 s) against its exact solution");
  cmd->add_option("--case", options->caseName, "ritter (dry bed), stoker (wet bed) or radial")
    ->capture_default_str();
  cmd->add_option("--profile", options->profilePath, "write x, h, exact to this CSV file");
  return { cmd, [options] { return validate(*options); } };
}
} // namespace swe::cli
