#include "HostMemory.h"

#include <algorithm>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

#include <sys/resource.h>

namespace swe
{
namespace
{
constexpr std::uint64_t kUnknown = std::numeric_limits<std::uint64_t>::max();

// A "Key:   123 kB" line of a /proc file, in bytes; kUnknown if absent.
std::uint64_t procKilobytes(const char* path, const std::string& key)
{
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line))
    if (line.compare(0, key.size() + 1, key + ":") == 0)
    {
      std::istringstream value(line.substr(key.size() + 1));
      std::uint64_t kilobytes = 0;
      if (value >> kilobytes)
        return kilobytes * 1024;
    }
  return kUnknown;
}

// A file holding one number of bytes (cgroup limits and usage); kUnknown if absent or "max".
std::uint64_t fileBytes(const std::string& path)
{
  std::ifstream in(path);
  std::uint64_t bytes = 0;
  return in >> bytes ? bytes : kUnknown;
}

// This process's memory cgroup directory under /sys/fs/cgroup (v2: "0::/path"), or "".
std::string cgroupV2Directory()
{
  std::ifstream in("/proc/self/cgroup");
  std::string line;
  while (std::getline(in, line))
    if (line.compare(0, 3, "0::") == 0)
      return "/sys/fs/cgroup" + line.substr(3);
  return "";
}

// What a cgroup limit leaves: limit - usage, and the limit; kUnknown where there is none.
void cgroupRoom(std::uint64_t& room, std::uint64_t& total)
{
  std::uint64_t limit = kUnknown, usage = kUnknown;
  const std::string v2 = cgroupV2Directory();
  if (!v2.empty())
  {
    limit = fileBytes(v2 + "/memory.max");
    usage = fileBytes(v2 + "/memory.current");
  }
  if (limit == kUnknown)
  {
    limit = fileBytes("/sys/fs/cgroup/memory/memory.limit_in_bytes");
    usage = fileBytes("/sys/fs/cgroup/memory/memory.usage_in_bytes");
  }
  // (v1 reports "no limit" as a huge number)
  if (limit == kUnknown || limit >= (1ull << 60) || usage == kUnknown)
    return;
  room = limit > usage ? limit - usage : 0;
  total = limit;
}
} // namespace

std::uint64_t availableHostMemory()
{
  std::uint64_t available = procKilobytes("/proc/meminfo", "MemAvailable");
  std::uint64_t total = procKilobytes("/proc/meminfo", "MemTotal");
  std::uint64_t cgroupAvailable = kUnknown, cgroupTotal = kUnknown;
  cgroupRoom(cgroupAvailable, cgroupTotal);
  available = std::min(available, cgroupAvailable);
  total = std::min(total, cgroupTotal);
  if (available == kUnknown || total == kUnknown)
    return 0;
  const std::uint64_t held = procKilobytes("/proc/self/status", "VmRSS");
  std::uint64_t room = std::min(total, available + (held == kUnknown ? 0 : held));
  // An address-space limit (ulimit -v, as clusters set): past it an allocation fails inside the
  // OpenCL driver, which may abort. What it leaves beside the address space in use (not counting
  // what an earlier run would give back: the refusal errs on the safe side).
  return std::min(room, addressSpaceRoom());
}

std::uint64_t addressSpaceRoom()
{
  rlimit limit{};
  const std::uint64_t mapped = procKilobytes("/proc/self/status", "VmSize");
  if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY || mapped == kUnknown)
    return kUnknown;
  const auto cap = static_cast<std::uint64_t>(limit.rlim_cur);
  return cap > mapped ? cap - mapped : 0;
}
} // namespace swe
