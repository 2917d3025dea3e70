#include "ProgramCache.h"

#include "AtomicFile.h"
#include "CacheWarnings.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <utility>

namespace swe
{
namespace
{
// FNV-1a, 64 bits, from basis: two bases give the entry's 128-bit name.
std::uint64_t fnv1a(const std::string& text, std::uint64_t basis)
{
  std::uint64_t hash = basis;
  for (const unsigned char c : text)
  {
    hash ^= c;
    hash *= 0x100000001b3ull;
  }
  return hash;
}

// Programs kept at most: a run's grid size is built into its program, so each new size adds one.
constexpr std::size_t kProgramsKept = 64;

// Removes the programs least recently used (loaded or stored: their files' times) beyond
// kProgramsKept, the newest kept.
void pruneFolder(const std::string& folder)
{
  namespace fs = std::filesystem;
  std::error_code error;
  std::vector<std::pair<fs::file_time_type, fs::path>> programs;
  for (const fs::directory_entry& entry : fs::directory_iterator(folder, error))
    if (entry.path().extension() == ".bin")
      programs.emplace_back(entry.last_write_time(error), entry.path());
  if (programs.size() <= kProgramsKept)
    return;
  std::sort(programs.begin(), programs.end());
  for (std::size_t k = 0; k + kProgramsKept < programs.size(); ++k)
    fs::remove(programs[k].second, error);
}

// The folder SWE_PROGRAM_CACHE names ("off": none); without it, the cache folder's programs/ for
// a GPU and none for a CPU device: PoCL keeps its own compiled kernels, and compiles a program
// loaded from its binary again the first time, which made a first run of a test take 100.7 s
// against 18.5 s (PERFORMANCE.md).
std::string programCacheFolder(const cl::Device& device)
{
  if (const char* folder = std::getenv("SWE_PROGRAM_CACHE"))
    return std::string(folder) == "off" ? std::string() : std::string(folder);
  if (device.getInfo<CL_DEVICE_TYPE>() & CL_DEVICE_TYPE_CPU)
    return {};
  return cacheDirectory() + "/programs";
}
} // namespace

ProgramCache::ProgramCache(const cl::Device& device,
  const std::string& source,
  const std::string& options)
{
  const std::string folder = programCacheFolder(device);
  if (folder.empty())
    return;
  const cl::Platform platform(device.getInfo<CL_DEVICE_PLATFORM>());
  // Whatever could change the binary: the platform and its version, the device, its driver, the
  // options and the source.
  std::ostringstream what;
  what << platform.getInfo<CL_PLATFORM_NAME>() << '\n'
       << platform.getInfo<CL_PLATFORM_VERSION>() << '\n'
       << device.getInfo<CL_DEVICE_NAME>() << '\n'
       << device.getInfo<CL_DEVICE_VERSION>() << '\n'
       << device.getInfo<CL_DRIVER_VERSION>() << '\n'
       << options << '\n'
       << source;
  char name[40];
  std::snprintf(name,
    sizeof(name),
    "%016llx%016llx",
    static_cast<unsigned long long>(fnv1a(what.str(), 0xcbf29ce484222325ull)),
    static_cast<unsigned long long>(fnv1a(what.str(), 0x84222325cbf29ce4ull)));
  path_ = folder + "/" + name + ".bin";
  header_ = std::string("swe program binary 1 ") + name + "\n";
}

std::optional<std::vector<unsigned char>> ProgramCache::load() const
{
  if (!active())
    return std::nullopt;
  std::ifstream in(path_, std::ios::binary);
  if (!in)
    return std::nullopt;
  std::string header;
  if (!std::getline(in, header) || header + "\n" != header_)
    return std::nullopt;
  std::vector<unsigned char> binary(
    (std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (binary.empty())
    return std::nullopt;
  std::error_code error; // (marked as used, for pruneFolder; a read-only folder is fine)
  std::filesystem::last_write_time(path_, std::filesystem::file_time_type::clock::now(), error);
  return binary;
}

void ProgramCache::store(const cl::Program& program) const
{
  if (!active())
    return;
  const std::vector<std::vector<unsigned char>> binaries = program.getInfo<CL_PROGRAM_BINARIES>();
  if (binaries.size() != 1 || binaries[0].empty())
    return; // (a driver that gives none: nothing to keep)
  makeParentDirectories(path_);
  std::string bytes = header_;
  bytes.append(binaries[0].begin(), binaries[0].end());
  if (const int error = writeFileAtomicallyOrErrno(path_, bytes))
    reportUnwritableCache("kernel cache",
      path_,
      writeFailureCause(error),
      "every run will build the OpenCL kernels again; set SWE_PROGRAM_CACHE to a writable folder "
      "(or to off)");
  else
    pruneFolder(std::filesystem::path(path_).parent_path().string());
}
} // namespace swe
