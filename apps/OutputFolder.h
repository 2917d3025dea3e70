#pragma once
// The --out folder of swe run: one run writes into it at a time, and a fresh run does not mix its
// files with another run's series there.
#include <string>
#include <vector>

namespace swe::cli
{
class OutputFolder
{
public:
  // Creates directory if needed and holds its lock (directory/.swe.lock, which records this
  // process's pid and host) until destroyed or the process ends, even killed. Throws swe::Error
  // where another run holds it, naming that run's pid and host. Where the folder holds another
  // run's series (swe.pvd, its frames, gauges.csv, balance.csv), a fresh run is refused unless
  // overwrite, which removes those files first; a run that continues (restart) keeps them
  // (VtiSeriesWriter::continueAt). Temporary files a killed run left are removed.
  OutputFolder(const std::string& directory, bool overwrite, bool restart);
  ~OutputFolder();
  OutputFolder(const OutputFolder&) = delete;
  OutputFolder& operator=(const OutputFolder&) = delete;

private:
  void lock();
  // With the lock held: a killed run's temporary files removed, another run's series refused or
  // (overwrite) removed.
  void prepare(bool overwrite, bool restart);
  // A finite file-size limit (ulimit -f) is said up front: it stops a run once frames outgrow it.
  static void warnOfFileSizeLimit();
  // The files of an earlier run here, by name.
  std::vector<std::string> earlierRunFiles() const;
  std::string directory_;
  int lockFd_ = -1;
};
} // namespace swe::cli
