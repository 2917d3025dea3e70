#pragma once
// Everything that defines a simulation, independent of VTK and of OpenCL: the plugin's properties
// and the tool's flags are both turned into this struct, and the engine takes nothing else.
#include <string>
#include <vector>

namespace swe
{
enum class Precision
{
  Single,
  Double
};

enum class Scenario
{
  DamBreak,       // thesis test: 20 m where x < 100 m, 10 m beyond, closed flat basin
  RadialDamBreak, // a cylinder of deep water in the middle of a shallower lake
  LakeAtRest      // flat water over a flat bed
};

struct SimulationParameters
{
  int nx = 1000;
  int ny = 1000;
  double dx = 0.5;       // cell size [m]
  double gravity = 9.81; // [m/s^2]
  double manning = 0.0;  // Manning coefficient n [s/m^(1/3)]
  double cfl = 0.45;     // Courant number C in dt = C dx / max(|u|+c, |v|+c)
  double fixedDt = 0.0;  // > 0: fixed time step [s]; 0: CFL-adaptive
  Precision precision = Precision::Single;
  std::string device = "auto"; // "auto", a device index, or a substring of a device name
  // Extra OpenCL build options (e.g. "-DWG_X=32"): appended last, so they override defaults.
  std::string buildOptions;

  // Throws swe::Error naming the first bad value.
  void validate() const;
};

// Names used on the command line and in the plugin, in a stable order.
const std::vector<std::string>& scenarioNames();
Scenario scenarioFromName(const std::string& name);
std::string scenarioName(Scenario scenario);
Precision precisionFromName(const std::string& name);
std::string precisionName(Precision precision);

// A number as a person would write it in a message: 0.1, -1, 1e-09, nan.
std::string formatValue(double value);

// Throws swe::Error unless value is finite; what names the quantity in the message.
void requireFinite(double value, const std::string& what);
} // namespace swe
