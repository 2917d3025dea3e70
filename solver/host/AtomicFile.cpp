#include "AtomicFile.h"

#include "Error.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <regex>
#include <unistd.h>

namespace swe
{
namespace
{
const char* const kTemporarySuffix = ".partial";

// Unique to the process and the write: threads of one process (a split run's ranks, the kernel
// cache's stores) may write the same file at once, each under a name of its own.
std::string temporaryNameFor(const std::string& path)
{
  static std::atomic<unsigned> writes{ 0 };
  return path + "." + std::to_string(::getpid()) + "-" + std::to_string(writes++) +
         kTemporarySuffix;
}

std::string failure(const std::string& path, int error)
{
  return "cannot write '" + path + "': " + writeFailureCause(error);
}

std::string directoryOf(const std::string& path)
{
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

// Flushes the file at path (written and closed) to the disk; the errno of a failure, else 0.
int flushToDisk(const std::string& path, int flags = O_RDONLY)
{
  const int fd = ::open(path.c_str(), flags | O_CLOEXEC);
  if (fd < 0)
    return errno;
  // (a folder on a file system that cannot flush one says EINVAL: its files are flushed)
  const int error = ::fsync(fd) == 0 || errno == EINVAL ? 0 : errno;
  ::close(fd);
  return error;
}

// Renames the flushed temporary file over path and makes the rename itself durable; the errno
// of a failure, else 0.
int renameFlushed(const std::string& temporary, const std::string& path)
{
  if (std::rename(temporary.c_str(), path.c_str()) != 0)
  {
    const int error = errno;
    std::remove(temporary.c_str());
    return error;
  }
  return flushToDisk(directoryOf(path), O_RDONLY | O_DIRECTORY);
}

// Writes bytes to the new file temporary, flushed; the errno of a failure (the file removed),
// else 0.
int writeFlushed(const std::string& temporary, std::string_view bytes)
{
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    return errno;
  int error = 0;
  // (write may take fewer bytes than asked: a full disk then says ENOSPC on the next call)
  for (std::size_t done = 0; done < bytes.size() && error == 0;)
  {
    const ssize_t written = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (written >= 0)
      done += static_cast<std::size_t>(written);
    else if (errno != EINTR)
      error = errno;
  }
  if (::fsync(fd) != 0 && error == 0 && errno != EINVAL)
    error = errno;
  if (::close(fd) != 0 && error == 0)
    error = errno;
  if (error != 0)
    std::remove(temporary.c_str());
  return error;
}
// SIGXFSZ ignored for its lifetime (AtomicFile.h).
class FileSizeSignalIgnored
{
public:
  FileSizeSignalIgnored()
    : previous_(std::signal(SIGXFSZ, SIG_IGN))
  {
  }
  ~FileSizeSignalIgnored() { std::signal(SIGXFSZ, previous_); }
  FileSizeSignalIgnored(const FileSizeSignalIgnored&) = delete;
  FileSizeSignalIgnored& operator=(const FileSizeSignalIgnored&) = delete;

private:
  void (*previous_)(int);
};
} // namespace

std::string writeFailureCause(int error)
{
  const std::string reason = std::strerror(error);
  switch (error)
  {
    case ENOSPC:
      return "the disk is full (" + reason + ")";
    case EDQUOT:
      return "the disk quota is used up (" + reason + ")";
    case EFBIG:
      return "the file-size limit is reached (" + reason + "; see ulimit -f)";
    case EIO:
      return "the disk failed (" + reason + ")";
    case EROFS:
      return "the file system is read-only (" + reason + ")";
    case EACCES:
    case EPERM:
      return "no permission to write there (" + reason + ")";
    case ENOENT:
      return "its folder does not exist (" + reason + ")";
    default:
      return reason;
  }
}

int writeFileAtomicallyOrErrno(const std::string& path, std::string_view bytes)
{
  const FileSizeSignalIgnored ignored;
  const std::string temporary = temporaryNameFor(path);
  const int error = writeFlushed(temporary, bytes);
  return error != 0 ? error : renameFlushed(temporary, path);
}

void writeFileAtomically(const std::string& path, std::string_view bytes)
{
  if (const int error = writeFileAtomicallyOrErrno(path, bytes))
    throw Error(failure(path, error));
}

AtomicFile::AtomicFile(std::string path)
  : path_(std::move(path))
  , temporary_(temporaryNameFor(path_))
  , fileSizeSignal_(std::signal(SIGXFSZ, SIG_IGN))
{
}

AtomicFile::~AtomicFile()
{
  if (!committed_)
    std::remove(temporary_.c_str());
  std::signal(SIGXFSZ, fileSizeSignal_);
}

void AtomicFile::commit()
{
  committed_ = true;
  int error = flushToDisk(temporary_);
  if (error != 0)
    std::remove(temporary_.c_str());
  else
    error = renameFlushed(temporary_, path_);
  if (error != 0)
    throw Error(failure(path_, error));
}

bool isTemporaryFileName(const std::string& name)
{
  static const std::regex temporary(".+\\.[0-9]+(-[0-9]+)?\\.partial");
  return std::regex_match(name, temporary);
}
} // namespace swe
