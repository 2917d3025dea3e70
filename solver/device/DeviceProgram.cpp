#include "DeviceProgram.h"

#include "Error.h"
#include "FloodMaps.h"
#include "ProgramDefines.h"
#include "InitialState.h"
#include "KernelSource.h"
#include "ProgramCache.h"

#include <cstdio>
#include <sstream>
#include <vector>

namespace swe
{
namespace
{
// Whether a program for scheme and shape is built from the kernel file name: the shared files,
// and only the scheme's own step kernels (the sweeps for GPU-shaped second-order launches, the
// lanes for rowsN), which a driver would otherwise compile for nothing (NVIDIA's compiles a
// program's every kernel: a third of a cold build there, PERFORMANCE.md).
bool programNeeds(const std::string& name, Scheme scheme, const LaunchShape& shape)
{
  const bool secondOrder = isSecondOrder(scheme);
  if (name == "lax_friedrichs.cl")
    return !secondOrder;
  if (name == "muscl_hllc.h" || name == "cell_update.h" || name == "muscl_steps.h")
    return secondOrder;
  if (name == "muscl_sweeps.cl")
    return secondOrder && !shape.wholeRows;
  if (name == "muscl_lanes.cl")
    return secondOrder && shape.wholeRows;
  return true;
}

// The build log without what drivers say about every clean build: blanks, a newline or a NUL,
// and NVIDIA's "Function X is a kernel, so overriding noinline attribute" for each kernel.
std::string withoutDriverNoise(const std::string& log)
{
  std::istringstream lines(log);
  std::string line, kept;
  while (std::getline(lines, line))
    if (line.find("is a kernel, so overriding noinline attribute") == std::string::npos)
      kept += line + "\n";
  if (kept.find_first_not_of(std::string(" \t\r\n\0", 5)) == std::string::npos)
    kept.clear();
  return kept;
}
} // namespace

DeviceFeatures deviceFeatures(const cl::Device& device,
  const SimulationParameters& params,
  const DeviceInfo& info,
  const LaunchShape& shape)
{
  DeviceFeatures features;
  const std::string extensions = device.getInfo<CL_DEVICE_EXTENSIONS>();
  // 16 lanes where the device prefers them (PoCL with AVX-512 in fp32): faster than 8 there
  // (see PERFORMANCE.md, 'Decisions that stand').
  features.musclLanes = (params.precision == Precision::Double
                            ? device.getInfo<CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE>()
                            : device.getInfo<CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT>()) >= 16
                          ? 16
                          : 8;
  // (-DSWE_NO_SPEED_ATOMICS: as on a device without them, for tests; kernels/device/reductions.h.)
  const bool atomicsOff = params.buildOptions.find("-DSWE_NO_SPEED_ATOMICS") != std::string::npos;
  features.speedAtomics =
    !atomicsOff && (params.precision == Precision::Single ||
                     extensions.find("cl_khr_int64_extended_atomics") != std::string::npos);
  features.fusedClock = params.scheme == Scheme::LaxFriedrichs && features.speedAtomics &&
                        (params.precision == Precision::Single ||
                          extensions.find("cl_khr_int64_base_atomics") != std::string::npos);
  features.fp64 =
    params.precision == Precision::Double || extensions.find("cl_khr_fp64") != std::string::npos;
  // Said, not silently run one step a launch (the tuner leaves such shapes out).
  if (shape.steps == 2 && !features.fusedClock)
    throw Error("launch shape " + shape.text() + ": two steps a launch keep the clock on the " +
                "device, which needs atomics (64-bit ones in double precision) that '" + info.name +
                "' lacks; use a shape without s2");
  return features;
}

std::vector<PointSource> sourcesHere(const SimulationParameters& params)
{
  std::vector<PointSource> here;
  for (PointSource source : params.sources)
  {
    const int i = gaugeCell(source.x, params.dx) - params.blockX0,
              j = gaugeCell(source.y, params.dx) - params.blockY0;
    if (i < 0 || i >= params.nx || j < 0 || j >= params.ny)
      continue;
    source.x = (i + 0.5) * params.dx; // (its cell's centre, in this grid)
    source.y = (j + 0.5) * params.dx;
    here.push_back(std::move(source));
  }
  return here;
}

namespace
{
// A series as __constant arrays NAME_T (times [s]) and NAME_V (values times scale, less offset)
// of n points (NAME_N) in the device precision.
void seriesConstants(std::ostream& s,
  const std::string& name,
  const Series& series,
  double scale,
  double offset,
  Precision precision)
{
  const char* type = precision == Precision::Double ? "double" : "float";
  const std::size_t n = series.size();
  s << "#define " << name << "_N " << n << "\n__constant " << type << " " << name << "_T[" << n
    << "] = {";
  for (std::size_t k = 0; k < n; ++k)
    s << (k ? ", " : "") << openclLiteral(series[k][0], precision);
  s << "};\n__constant " << type << " " << name << "_V[" << n << "] = {";
  for (std::size_t k = 0; k < n; ++k)
    s << (k ? ", " : "") << openclLiteral(series[k][1] * scale - offset, precision);
  s << "};\n";
}

// Series one after the other as NAME (seriesConstants, values times scale), and each one's
// first point and point count as FIRST and POINTS.
void seriesListConstants(std::ostream& s,
  const std::string& name,
  const std::string& first,
  const std::string& points,
  const std::vector<const Series*>& list,
  double scale,
  Precision precision)
{
  Series all;
  std::ostringstream firsts, counts;
  for (std::size_t k = 0; k < list.size(); ++k)
  {
    firsts << (k ? ", " : "") << all.size();
    counts << (k ? ", " : "") << list[k]->size();
    all.insert(all.end(), list[k]->begin(), list[k]->end());
  }
  seriesConstants(s, name, all, scale, 0, precision);
  for (const auto& [array, values] :
    { std::pair{ &first, &firsts }, std::pair{ &points, &counts } })
    s << "__constant int " << *array << "[" << list.size() << "] = {" << values->str() << "};\n";
}

// The run's forcing series as program constants: the rain series (RAIN_SERIES, rates in m/s) or
// the rain zones' (RAIN_ZONES) and the sides' (BCS_WEST ...; levels relative to the local datum);
// and whether there are point sources, whose series are buffers (state/PointSources.h).
std::string forcingSource(const SimulationParameters& params, double datum)
{
  std::ostringstream s;
  if (!sourcesHere(params).empty())
    s << "#define POINT_SOURCES 1\n#define INV_CELL_AREA "
      << openclLiteral(1 / (params.dx * params.dx), params.precision) << "\n";
  if (!params.rainSeries.empty())
    seriesConstants(s, "RAIN_SERIES", params.rainSeries, 1 / 3.6e6, 0, params.precision);
  if (!params.rainZones.empty())
  {
    std::vector<const Series*> zones;
    for (const Series& zone : params.rainZones)
      zones.push_back(&zone);
    seriesListConstants(
      s, "RAIN_ZONES", "RAIN_ZONE_FIRST", "RAIN_ZONE_POINTS", zones, 1 / 3.6e6, params.precision);
  }
  static const char* const suffix[4] = { "WEST", "EAST", "SOUTH", "NORTH" };
  for (int side = 0; side < 4; ++side)
  {
    const Boundary& b = params.boundaries[side];
    if (!b.series.empty())
      seriesConstants(s,
        std::string("BCS_") + suffix[side],
        b.series,
        1,
        b.type == BoundaryType::FixedLevel ? datum : 0,
        params.precision);
  }
  return s.str();
}
} // namespace

std::string programSource(const SimulationParameters& params,
  const LaunchShape& shape,
  double datum)
{
  const Scheme scheme = params.scheme;
  // The embedded text is the files in order, each after a line "// ---- NAME"
  // (cmake/EmbedKernels.cmake); without the markers, everything.
  const std::string& all = kernelSource();
  const std::string marker = "// ---- ";
  if (all.compare(0, marker.size(), marker) != 0)
    return all;
  std::string source;
  for (std::size_t begin = 0; begin < all.size();)
  {
    std::size_t end = all.find("\n" + marker, begin);
    end = end == std::string::npos ? all.size() : end + 1;
    const std::size_t nameEnd = all.find('\n', begin);
    const std::string name = all.substr(begin + marker.size(), nameEnd - begin - marker.size());
    if (name == "device_clock.h")
      source += forcingSource(params, datum);
    if (programNeeds(name, scheme, shape))
      source.append(all, begin, end - begin);
    begin = end;
  }
  return source;
}

DeviceProgram::DeviceProgram(const cl::Context& context,
  const cl::Device& device,
  const DeviceInfo& info,
  const std::string& source,
  const std::string& options)
  : device_(device)
{
  const ProgramCache cache(device, source, options);
  const auto binary = cache.load();
  fromCache_ = binary && buildFromBinary(context, *binary, options);
  if (!fromCache_)
  {
    buildFromSource(context, info, source, options);
    cache.store(program_);
  }
}

bool DeviceProgram::buildFromBinary(const cl::Context& context,
  const std::vector<unsigned char>& binary,
  const std::string& options)
{
  try
  {
    cl::Program program(context, { device_ }, cl::Program::Binaries{ binary });
    program.build(std::vector<cl::Device>{ device_ }, options.c_str());
    log_ = withoutDriverNoise(program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device_));
    program_ = program;
    return true;
  }
  catch (const cl::Error&)
  {
    return false; // (a binary the driver no longer takes: built from source, and replaced)
  }
}

void DeviceProgram::buildFromSource(const cl::Context& context,
  const DeviceInfo& info,
  const std::string& source,
  const std::string& options)
{
  program_ = cl::Program(context, source);
  try
  {
    program_.build(std::vector<cl::Device>{ device_ }, options.c_str());
    log_ = withoutDriverNoise(program_.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device_));
  }
  catch (const cl::BuildError& e)
  {
    std::string log;
    for (const auto& entry : e.getBuildLog())
      log += entry.second;
    // PoCL fails every build, with an empty log, when it cannot write its kernel cache: the
    // cause and the fix first, ahead of the options.
    const std::string pocl = poclCacheProblem(info);
    const std::string what = pocl.empty() ? " with options '" + options + "'"
                                          : ": " + pocl + ". Build options: '" + options + "'";
    throw Error(
      "the OpenCL kernels failed to build on '" + info.name + "'" + what + ". Build log:\n" + log);
  }
  catch (const cl::Error& e)
  {
    std::string log = program_.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device_);
    const std::string pocl = poclCacheProblem(info);
    throw Error("the OpenCL kernels failed to build on '" + info.name + "' (" + describe(e) + ")" +
                (pocl.empty() ? "" : ": " + pocl) + ". Build log:\n" + log);
  }
}

cl::Kernel DeviceProgram::kernel(const char* name) const
{
  return cl::Kernel(program_, name);
}

cl::NDRange DeviceProgram::compiledGroup(const cl::Kernel& kernel) const
{
  const auto size = kernel.getWorkGroupInfo<CL_KERNEL_COMPILE_WORK_GROUP_SIZE>(device_);
  return cl::NDRange(size[0], size[1], size[2]);
}

GridLaunch gridLaunch(const DeviceProgram& program,
  const SimulationParameters& params,
  const LaunchShape& shape)
{
  const cl::NDRange wg = program.compiledGroup(program.kernel("wave_speed_partials"));
  const cl::NDRange rg = program.compiledGroup(program.kernel("compute_dt"));
  GridLaunch launch;
  launch.local = cl::NDRange(wg[0], wg[1]);
  launch.reduce = cl::NDRange(rg[0]);
  const std::uint64_t groupsX = roundUp(params.nx, wg[0]) / wg[0];
  const std::uint64_t groupsY = roundUp(params.ny, wg[1]) / wg[1];
  const int columns = columnsPerItem(shape, params), rowsPerItem = shape.wholeRows ? 1 : shape.rows;
  const std::uint64_t speedGroupsX = roundUp((params.nx + columns - 1) / columns, wg[0]) / wg[0];
  const std::uint64_t speedGroupsY =
    roundUp((params.ny + rowsPerItem - 1) / rowsPerItem, wg[1]) / wg[1];
  launch.global = cl::NDRange(groupsX * wg[0], groupsY * wg[1]);
  launch.speed = cl::NDRange(speedGroupsX * wg[0], speedGroupsY * wg[1]);
  launch.groups = static_cast<int>(groupsX * groupsY);
  launch.speedGroups = static_cast<int>(speedGroupsX * speedGroupsY);
  launch.tiles = dryTileGrid(params, shape);
  launch.stepsFoldMaps = stepsFoldFloodMaps(params, shape);
  return launch;
}
} // namespace swe
