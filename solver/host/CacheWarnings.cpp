#include "CacheWarnings.h"

#include <cstdlib>
#include <mutex>
#include <set>
#include <sys/stat.h>

namespace swe
{
namespace
{
std::mutex handlerMutex;
CacheWarningHandler handler;
std::set<std::string> reportedPaths;
} // namespace

void setCacheWarningHandler(CacheWarningHandler newHandler)
{
  const std::lock_guard<std::mutex> lock(handlerMutex);
  handler = std::move(newHandler);
}

void reportUnwritableCache(const std::string& what,
  const std::string& path,
  const std::string& reason,
  const std::string& consequenceAndFix)
{
  const std::lock_guard<std::mutex> lock(handlerMutex);
  if (!handler || !reportedPaths.insert(path).second)
    return;
  handler("cannot write the " + what + " " + path + " (" + reason + "), so " + consequenceAndFix);
}

std::string cacheDirectory()
{
  if (const char* cache = std::getenv("XDG_CACHE_HOME"))
    if (*cache)
      return std::string(cache) + "/swe";
  const char* home = std::getenv("HOME");
  return std::string(home && *home ? home : "/tmp") + "/.cache/swe";
}

void makeParentDirectories(const std::string& path)
{
  for (std::size_t slash = path.find('/', 1); slash != std::string::npos;
       slash = path.find('/', slash + 1))
    ::mkdir(path.substr(0, slash).c_str(), 0755); // existing folders are fine
}
} // namespace swe
