#pragma once
// Built programs kept on disk, so that a run whose kernels, options, device and driver a run
// before built loads the binary (CL_PROGRAM_BINARIES) instead of compiling the source: one file a
// program, named by a 128-bit hash of what made it, in the cache folder's programs/ for a GPU
// (for a CPU device only where SWE_PROGRAM_CACHE names a folder; "off" keeps none), the 64 used
// last. A file that is damaged, or that the driver refuses, is built from source again and
// replaced; a folder that cannot be written is reported once (CacheWarnings.h) and the run goes
// on without it.
#include "OpenCL.h"

#include <optional>
#include <string>
#include <vector>

namespace swe
{
class ProgramCache
{
public:
  // The entry of the program built from source with options for device; inactive where
  // SWE_PROGRAM_CACHE is "off".
  ProgramCache(const cl::Device& device, const std::string& source, const std::string& options);

  // The kept binary, when there is one whose header names this entry.
  std::optional<std::vector<unsigned char>> load() const;
  // Keeps program's binary for the device (the only one it was built for); a write that fails is
  // reported, not thrown.
  void store(const cl::Program& program) const;

  const std::string& path() const { return path_; }
  bool active() const { return !path_.empty(); }

private:
  std::string path_;
  std::string header_; // the file's first line: its format and the entry's hash
};
} // namespace swe
