#include "Devices.h"

#include "DeviceContext.h"
#include "Error.h"
#include "OpenCL.h"
#include "Parameters.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <sstream>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

namespace swe
{
namespace
{
std::string typeName(cl_device_type type)
{
  if (type & CL_DEVICE_TYPE_GPU)
    return "GPU";
  if (type & CL_DEVICE_TYPE_CPU)
    return "CPU";
  if (type & CL_DEVICE_TYPE_ACCELERATOR)
    return "accelerator";
  return "other";
}

std::string errorName(cl_int code)
{
  switch (code)
  {
    case CL_DEVICE_NOT_FOUND:
      return "CL_DEVICE_NOT_FOUND";
    case CL_OUT_OF_RESOURCES:
      return "CL_OUT_OF_RESOURCES";
    case CL_OUT_OF_HOST_MEMORY:
      return "CL_OUT_OF_HOST_MEMORY";
    case CL_MEM_OBJECT_ALLOCATION_FAILURE:
      return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
    case CL_BUILD_PROGRAM_FAILURE:
      return "CL_BUILD_PROGRAM_FAILURE";
    case CL_INVALID_WORK_GROUP_SIZE:
      return "CL_INVALID_WORK_GROUP_SIZE";
    case CL_INVALID_BUFFER_SIZE:
      return "CL_INVALID_BUFFER_SIZE";
    case CL_PLATFORM_NOT_FOUND_KHR:
      return "CL_PLATFORM_NOT_FOUND_KHR";
    default:
      return "OpenCL error " + std::to_string(code);
  }
}
// Why no file can be created in the directory at path, making it and its parents as PoCL would
// (strerror's text), or "" when one can.
std::string unwritableReason(const std::string& path)
{
  // The nearest ancestor that exists decides: not a folder, or no room to create in it.
  std::string existing = path;
  struct stat info;
  while (::stat(existing.c_str(), &info) != 0)
  {
    if (errno != ENOENT)
      return std::strerror(errno);
    const std::size_t slash = existing.find_last_of('/');
    existing = slash == std::string::npos ? "." : slash == 0 ? "/" : existing.substr(0, slash);
  }
  if (!S_ISDIR(info.st_mode))
    return std::strerror(ENOTDIR);
  // A file made and removed, not access(): that says yes to root on read-only mounts and /proc.
  std::string probe = existing + "/.swe-write-test-XXXXXX";
  const int fd = ::mkstemp(probe.data());
  if (fd < 0)
    return std::strerror(errno);
  ::close(fd);
  ::unlink(probe.c_str());
  return "";
}

// The first .icd file whose name holds `part` that the OpenCL ICD loader is told of, in
// $OCL_ICD_VENDORS (a folder or one file) or /etc/OpenCL/vendors; "" where there is none.
std::string installedDriver(const std::string& part)
{
  const char* vendors = std::getenv("OCL_ICD_VENDORS");
  const std::string where = vendors && *vendors ? vendors : "/etc/OpenCL/vendors";
  DIR* folder = ::opendir(where.c_str());
  if (!folder)
    return lowercase(where).find(part) != std::string::npos ? where : "";
  std::string found;
  while (const dirent* entry = ::readdir(folder))
  {
    const std::string name = lowercase(entry->d_name);
    if (found.empty() && name.find(part) != std::string::npos && name.size() > 4 &&
        name.compare(name.size() - 4, 4, ".icd") == 0)
      found = entry->d_name;
  }
  ::closedir(folder);
  return found;
}

bool poclInstalled()
{
  return !installedDriver("pocl").empty();
}

// Where a driver is installed but the process runs under an address-space limit (ulimit -v):
// drivers map far more address space than they use (PoCL about 1 GiB), and under a limit their
// platform query fails as if nothing were installed. The sentence naming the limit and the fix.
std::string addressSpaceLimitProblem()
{
  rlimit limit{};
  const std::string driver = installedDriver("");
  if (driver.empty() || getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
    return "";
  return "the process's address-space limit (ulimit -v " + std::to_string(limit.rlim_cur / 1024) +
         ", in KiB) leaves the installed OpenCL driver (" + driver +
         ") too little to load: raise it (ulimit -v unlimited, or some GiB more) and check with "
         "'swe devices'";
}
} // namespace

std::string noDeviceProblem()
{
  // PoCL installed but unable to write its cache looks like no driver at all.
  std::string problem = poclCacheProblem();
  if (problem.empty())
    problem = addressSpaceLimitProblem();
  if (problem.empty())
    problem = "install an OpenCL driver (for a CPU device, Debian's pocl-opencl-icd) and check "
              "with 'swe devices'";
  return problem;
}

std::string poclCacheProblem()
{
  if (!poclInstalled())
    return "";
  std::string path, source;
  const char* cacheDir = std::getenv("POCL_CACHE_DIR");
  const char* xdgCache = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  if (cacheDir && *cacheDir)
    path = cacheDir, source = "$POCL_CACHE_DIR";
  else if (xdgCache && *xdgCache)
    path = std::string(xdgCache) + "/pocl/kcache", source = "$XDG_CACHE_HOME";
  else if (home)
    path = std::string(home) + "/.cache/pocl/kcache", source = "$HOME";
  else
    path = "/tmp/pocl/kcache", source = "no $HOME";
  const std::string reason = unwritableReason(path);
  if (reason.empty())
    return "";
  return "PoCL's kernel cache " + path + " (from " + source + ") is not writable (" + reason +
         "): set POCL_CACHE_DIR to a writable directory, e.g. export "
         "POCL_CACHE_DIR=/tmp/pocl-cache";
}

std::string poclCacheProblem(const DeviceInfo& device)
{
  const std::string platform = lowercase(device.platform);
  if (platform.find("portable computing language") == std::string::npos &&
      platform.find("pocl") == std::string::npos)
    return "";
  return poclCacheProblem();
}

std::string describe(const cl::Error& error)
{
  return std::string(error.what()) + " failed (" + errorName(error.err()) + ")";
}

std::vector<cl::Device> openclDevices()
{
  std::vector<cl::Device> devices;
  std::vector<cl::Platform> platforms;
  try
  {
    cl::Platform::get(&platforms);
  }
  catch (const cl::Error&)
  {
    return devices; // no ICD installed: no platform, no device
  }
  for (const auto& platform : platforms)
  {
    std::vector<cl::Device> found;
    try
    {
      platform.getDevices(CL_DEVICE_TYPE_ALL, &found);
    }
    catch (const cl::Error&)
    {
      continue; // a platform without devices
    }
    devices.insert(devices.end(), found.begin(), found.end());
  }
  return devices;
}

std::string DeviceInfo::summary() const
{
  char memory[32];
  std::snprintf(memory, sizeof(memory), "%.1f GiB", globalMemory / (1024.0 * 1024.0 * 1024.0));
  std::ostringstream s;
  s << index << " | " << platform << " | " << name << " | " << type << " | " << memory << " | fp64 "
    << (fp64 ? "yes" : "no");
  return s.str();
}

std::string DeviceInfo::label() const
{
  return std::to_string(index) + ": " + name + " (" + type + ")";
}

std::vector<DeviceInfo> listDevices()
{
  std::vector<DeviceInfo> infos;
  try
  {
    const auto devices = openclDevices();
    for (std::size_t k = 0; k < devices.size(); ++k)
    {
      const cl::Device& device = devices[k];
      DeviceInfo info;
      info.index = static_cast<int>(k);
      info.platform =
        cl::Platform(device.getInfo<CL_DEVICE_PLATFORM>()).getInfo<CL_PLATFORM_NAME>();
      info.name = device.getInfo<CL_DEVICE_NAME>();
      info.type = typeName(device.getInfo<CL_DEVICE_TYPE>());
      info.globalMemory = device.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>();
      info.maxAllocation = device.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>();
      info.localMemory = device.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
      info.maxWorkGroupSize = device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
      info.computeUnits = static_cast<int>(device.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>());
      info.fp64 = device.getInfo<CL_DEVICE_EXTENSIONS>().find("cl_khr_fp64") != std::string::npos;
      // Strip the trailing NULs and blanks some drivers leave in names.
      for (std::string* text : { &info.platform, &info.name })
        while (!text->empty() && (text->back() == '\0' || text->back() == ' '))
          text->pop_back();
      infos.push_back(info);
    }
  }
  catch (const cl::Error& e)
  {
    throw Error("could not query the OpenCL devices: " + describe(e));
  }
  return infos;
}

DeviceInfo selectDevice(const std::string& selector)
{
  return selectDevice(selector, listDevices());
}

std::shared_ptr<DeviceContext> shareDevice(const DeviceInfo& device)
{
  return guarded("making a context on the device to share",
    [&]
    {
      return std::make_shared<DeviceContext>(
        openclDevices().at(static_cast<std::size_t>(device.index)), device);
    });
}

std::string deviceSelectorForRank(const std::string& selector, int nodeLocalRank)
{
  if (!selector.empty() && lowercase(selector) != "auto")
    return selector;
  const std::vector<DeviceInfo> devices = listDevices();
  const std::string type = selectDevice("auto", devices).type;
  std::vector<int> ofType;
  for (const DeviceInfo& d : devices)
    if (d.type == type)
      ofType.push_back(d.index);
  return std::to_string(ofType[static_cast<std::size_t>(nodeLocalRank) % ofType.size()]);
}

DeviceInfo selectDevice(const std::string& selector, const std::vector<DeviceInfo>& devices)
{
  if (devices.empty())
    throw Error("no OpenCL device found: " + noDeviceProblem());
  const std::string wanted = lowercase(selector);
  if (wanted.empty() || wanted == "auto")
  {
    for (const char* type : { "GPU", "CPU" })
      for (const auto& d : devices)
        if (d.type == type)
          return d;
    return devices.front();
  }
  // An index, alone ("1") or as listed by the plugin's dropdown ("1: NVIDIA H200 (GPU)").
  const std::string head = wanted.substr(0, wanted.find(':'));
  const bool numeric =
    !head.empty() &&
    std::all_of(head.begin(), head.end(), [](unsigned char c) { return std::isdigit(c); });
  if (numeric)
  {
    const std::size_t index = head.size() < 9 ? std::stoul(head) : devices.size();
    if (index < devices.size())
      return devices[index];
  }
  else
  {
    for (const auto& d : devices)
      if (lowercase(d.name).find(wanted) != std::string::npos)
        return d;
    for (const auto& d : devices)
      if (lowercase(d.platform).find(wanted) != std::string::npos)
        return d;
  }
  std::string known;
  for (const auto& d : devices)
    known += "\n  " + d.summary();
  throw Error("unknown OpenCL device '" + selector +
              "': use auto, an index or part of a name; devices found:" + known);
}

void requireDouble(const DeviceInfo& device)
{
  if (!device.fp64)
    throw Error("double precision was requested but device '" + device.name +
                "' does not support cl_khr_fp64: choose single precision or another device");
}
} // namespace swe
