#pragma once
// Files written whole or not at all. Each is made under a temporary name beside its final one,
// flushed to the disk and renamed over it when complete: a reader (ParaView opening a series, a
// restart) never meets half a file, a file written before stays as it was when a write fails,
// and the failure names the file and its cause.
#include <string>
#include <string_view>

namespace swe
{
// What a failed write's errno means to the person running the simulation, e.g. "the disk is full
// (No space left on device)".
std::string writeFailureCause(int error);

// While writing, SIGXFSZ is ignored (and restored after), so that a file-size limit (ulimit -f)
// fails the write with EFBIG instead of killing the process (ParaView, with the user's work in it,
// or swe).

// Writes bytes to path, atomically. Throws swe::Error naming path and the cause.
void writeFileAtomically(const std::string& path, std::string_view bytes);
// The same, for callers that go on without the file: the errno of a failure, else 0.
int writeFileAtomicallyOrErrno(const std::string& path, std::string_view bytes);

// A file that another library writes under its own name (GDAL): it writes temporaryPath(), then
// commit() flushes that to the disk and renames it to path. Destroyed uncommitted (the library
// failed), the temporary file is removed and path is left as it was.
class AtomicFile
{
public:
  explicit AtomicFile(std::string path);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  const std::string& temporaryPath() const { return temporary_; }
  // Throws swe::Error naming path and the cause.
  void commit();

private:
  std::string path_, temporary_;
  bool committed_ = false;
  void (*fileSizeSignal_)(int); // SIGXFSZ's handler before, restored when destroyed
};

// Whether name is a temporary file of AtomicFile or writeFileAtomically (left behind by a process
// that was killed while writing).
bool isTemporaryFileName(const std::string& name);
} // namespace swe
