#pragma once
// Where the engine's caches (the launch shapes, the built programs) report what they work around
// but their user should hear of: a cache file they cannot write, so that every run pays again for
// what the file would have kept. The engine prints nothing itself; the tool prints these, the
// plugin gives them as VTK warnings. Each path is reported once a process (the handler may be
// called from any thread that builds a Simulation). None by default.
#include <functional>
#include <string>

namespace swe
{
using CacheWarningHandler = std::function<void(const std::string& message)>;
void setCacheWarningHandler(CacheWarningHandler handler);

// Tells the handler, once for path, "cannot write the WHAT PATH (REASON), so CONSEQUENCE; FIX".
void reportUnwritableCache(const std::string& what,
  const std::string& path,
  const std::string& reason,
  const std::string& consequenceAndFix);

// The folder of the engine's cache files: $XDG_CACHE_HOME/swe, else ~/.cache/swe (/tmp/.cache/swe
// without a home).
std::string cacheDirectory();

// Makes path's parent folders, as far as they are missing; a failure shows when the file is
// written.
void makeParentDirectories(const std::string& path);
} // namespace swe
