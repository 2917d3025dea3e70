#include "OutputFolder.h"

#include "AtomicFile.h"
#include "EnsembleStatistics.h"
#include "Error.h"
#include "FrameArraySelection.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <filesystem>
#include <regex>
#include <iostream>
#include <sys/file.h>
#include <sys/resource.h>
#include <unistd.h>

namespace swe::cli
{
namespace
{
// Who holds the lock: written into the lock file, read back by a run that is refused.
std::string thisRun()
{
  char host[256] = "unknown host";
  ::gethostname(host, sizeof(host) - 1);
  char started[32] = "";
  const std::time_t now = std::time(nullptr);
  std::strftime(started, sizeof(started), "%Y-%m-%d %H:%M:%S UTC", std::gmtime(&now));
  return "pid " + std::to_string(::getpid()) + " on host " + host + ", started " + started;
}

std::string readAll(int fd)
{
  std::string text;
  char buffer[256];
  ssize_t got = 0;
  ::lseek(fd, 0, SEEK_SET);
  while ((got = ::read(fd, buffer, sizeof(buffer))) > 0)
    text.append(buffer, static_cast<std::size_t>(got));
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r'))
    text.pop_back();
  return text;
}

// A file of a run's output: its series, frames and pieces, gauges, balance, GeoTIFF maps; or of
// an ensemble's (swe ensemble): its statistics' series, members, GeoTIFF maps.
bool isRunOutput(const std::string& name)
{
  static const std::regex series("(swe|ensemble)(\\.pvd|_[0-9]{5,9}(_[0-9]+)?\\.(vti|pvti))");
  if (std::regex_match(name, series) || name == "gauges.csv" || name == "balance.csv" ||
      name == "members.csv")
    return true;
  for (const char* array : kFrameArrayNames)
    if (name == std::string(array) + ".tif")
      return true;
  for (int map = 0; map < kEnsembleMapCount; ++map)
    if (name == std::string(ensembleMapName(EnsembleMap(map))) + ".tif")
      return true;
  return false;
}
} // namespace

OutputFolder::OutputFolder(const std::string& directory, bool overwrite, bool restart)
  : directory_(directory)
{
  std::error_code ec;
  std::filesystem::create_directories(directory_, ec);
  if (ec)
    throw Error("cannot create the output folder '" + directory_ + "': " + ec.message());
  lock();
  try
  {
    prepare(overwrite, restart);
  }
  catch (...)
  {
    ::close(lockFd_); // (no destructor runs for an object whose constructor threw)
    throw;
  }
}

void OutputFolder::prepare(bool overwrite, bool restart)
{
  warnOfFileSizeLimit();
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(directory_, ec))
    if (isTemporaryFileName(entry.path().filename().string()))
      std::filesystem::remove(entry.path(), ec); // (a killed run's; none is writing now)
  if (restart)
    return;
  const std::vector<std::string> earlier = earlierRunFiles();
  if (earlier.empty())
    return;
  if (!overwrite)
    throw Error("'" + directory_ + "' holds another run's output (" + earlier.front() +
                (earlier.size() > 1 ? " and " + std::to_string(earlier.size() - 1) + " more" : "") +
                "): give another --out, or --overwrite to remove those files first, or "
                "--restart from one of its frames to continue it");
  for (const std::string& name : earlier)
    if (!std::filesystem::remove(directory_ + "/" + name, ec) && ec)
      throw Error("--overwrite cannot remove '" + directory_ + "/" + name + "': " + ec.message());
}

OutputFolder::~OutputFolder()
{
  if (lockFd_ >= 0)
    ::close(lockFd_); // (releases the lock; the file stays: removing it would race a new run)
}

void OutputFolder::warnOfFileSizeLimit()
{
  rlimit limit{};
  if (::getrlimit(RLIMIT_FSIZE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
    return;
  std::cerr << "swe: warning: files are limited to " << limit.rlim_cur / 1024
            << " KiB (ulimit -f): a frame larger than that stops the run, and the OpenCL "
               "compiler may fail on its own temporary files\n";
}

void OutputFolder::lock()
{
  const std::string path = directory_ + "/.swe.lock";
  lockFd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lockFd_ < 0)
    throw Error(
      "cannot write into the output folder '" + directory_ + "': " + writeFailureCause(errno));
  // (flock: the kernel releases it when the process ends, however it ends)
  if (::flock(lockFd_, LOCK_EX | LOCK_NB) != 0)
  {
    const std::string holder = readAll(lockFd_);
    ::close(lockFd_);
    lockFd_ = -1;
    throw Error("another swe run is writing into '" + directory_ + "' (" +
                (holder.empty() ? std::string("its lock file is ") + path : holder) +
                "): give another --out, or wait for that run to end");
  }
  const std::string holder = thisRun() + "\n";
  if (::ftruncate(lockFd_, 0) != 0 || ::pwrite(lockFd_, holder.data(), holder.size(), 0) < 0)
  {
    const int error = errno;
    ::close(lockFd_);
    throw Error(
      "cannot write into the output folder '" + directory_ + "': " + writeFailureCause(error));
  }
}

std::vector<std::string> OutputFolder::earlierRunFiles() const
{
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(directory_, ec))
    if (entry.is_regular_file(ec) && isRunOutput(entry.path().filename().string()))
      names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  // (the series first: it names the run best)
  auto pvd = std::find(names.begin(), names.end(), "swe.pvd");
  if (pvd == names.end())
    pvd = std::find(names.begin(), names.end(), "ensemble.pvd");
  if (pvd != names.end())
    std::rotate(names.begin(), pvd, pvd + 1);
  return names;
}
} // namespace swe::cli
