#include "ProgramDefines.h"

#include <cstdio>
#include <sstream>

namespace swe
{
std::string openclLiteral(double value, Precision precision)
{
  char text[64];
  const bool single = precision == Precision::Single;
  if (single)
    std::snprintf(text, sizeof(text), "%.9g", static_cast<double>(static_cast<float>(value)));
  else
    std::snprintf(text, sizeof(text), "%.17g", value);
  std::string literal = text;
  if (literal.find_first_of(".e") == std::string::npos)
    literal += ".0"; // "0f" is not a floating-point literal
  return single ? literal + "f" : literal;
}

std::string openclDoubleLiteral(double value)
{
  char text[64];
  std::snprintf(text, sizeof(text), "%.17g", value);
  std::string literal = text;
  return literal.find_first_of(".e") == std::string::npos ? literal + ".0" : literal;
}

bool userDefines(const SimulationParameters& params, const char* macro)
{
  return params.buildOptions.find(std::string("-D") + macro) != std::string::npos;
}

namespace
{
// The cells the rank owns, where it updates more (GridLayout): the wave speeds, the blow-up
// check and the sums count them alone (kernels/device/grid.h, OWNED).
std::string ownedOption(const GridLayout& layout)
{
  if (layout.ownedNx == 0)
    return "";
  return "-DOWN_I0=" + std::to_string(layout.ownedI0) +
         " -DOWN_J0=" + std::to_string(layout.ownedJ0) +
         " -DOWN_NX=" + std::to_string(layout.ownedNx) +
         " -DOWN_NY=" + std::to_string(layout.ownedNy) + " ";
}

// The block's first cell in the whole grid, where a run is split among ranks and draws for fp32's
// rounding at random (the second-order schemes), whose draws are the whole grid's cells'
// (kernels/device/random_rounding.h). Elsewhere ranks of equal blocks keep one program.
std::string blockOption(const SimulationParameters& params)
{
  const bool draws = params.precision == Precision::Single && isSecondOrder(params.scheme);
  if (!draws || (params.blockX0 == 0 && params.blockY0 == 0))
    return "";
  return "-DBLOCK_X0=" + std::to_string(params.blockX0) +
         " -DBLOCK_Y0=" + std::to_string(params.blockY0) + " ";
}
} // namespace

std::string deviceBuildOptions(const ProgramSettings& settings)
{
  const SimulationParameters& params = settings.params;
  const LaunchShape& shape = settings.shape;
  const auto real = [&](double value) { return openclLiteral(value, params.precision); };
  // The reduction group is a power of two.
  std::size_t reduce = 256;
  while (reduce > settings.info.maxWorkGroupSize)
    reduce /= 2;
  std::ostringstream s;
  // fp32 flushes denormals (below 1.2e-38, nothing a flood holds): the second-order sweeps
  // then skip the division and square-root slow paths that denormals take (see
  // PERFORMANCE.md, 'Decisions that stand').
  s << "-cl-std=CL1.2 "
    << (params.precision == Precision::Double ? "-DSWE_DOUBLE " : "-cl-denorms-are-zero ")
    << "-DNX=" << params.nx << " -DNY=" << params.ny << " -DGHOST=" << kGhost
    << " -DPITCH=" << settings.layout.pitch() << " -DOFFSET=" << settings.layout.offset()
    << " -DWG_X=" << shape.groupX << " -DWG_Y=" << shape.groupY
    << " -DROWS=" << (shape.wholeRows ? 1 : shape.rows)
    << " -DCOLUMNS=" << columnsPerItem(shape, params) << " -DBLOCK_ROWS=" << shape.rows
    << " -DREDUCE_WG=" << reduce << " -DGRAVITY=" << real(params.gravity)
    << " -DH_DRY=" << kDryDepth << " -DH_FILM=" << real(settings.local.filmDepth)
    << " -DELEVATION_DATUM=" << openclDoubleLiteral(settings.local.datum) << " "
    << ownedOption(settings.layout)
    << blockOption(params)
    // fp64 reciprocals and square roots from float estimates on GPUs, whose fp64 division and
    // root are long software sequences; CPUs divide (kernels/device/precision.h says why). Unless
    // the build options choose (tests take both on any device).
    << (params.precision == Precision::Double && settings.info.type == "GPU" &&
             !userDefines(params, "NEWTON_FP64")
           ? "-DNEWTON_FP64=1 "
           : "")
    // The CPU-shaped second-order path: the arithmetic on 8 or 16 cells at a time (unless
    // the build options set the width: tests take both on any device).
    << (shape.wholeRows && isSecondOrder(params.scheme) && !userDefines(params, "MUSCL_LANES")
           ? "-DMUSCL_LANES=" + std::to_string(settings.features.musclLanes) + " "
           : "");
  return s.str();
}
} // namespace swe
