// Files are written whole or not at all: a write that fails (here at the file-size limit, which
// fails the same way as a full disk, one write() short) names the file and the cause, leaves the
// file that was there as it was, and no temporary file behind.
#include "AtomicFile.h"
#include "Error.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace swe
{
namespace
{
std::string contents(const std::string& path)
{
  std::ifstream in(path, std::ios::binary);
  return { std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>() };
}

std::filesystem::path freshFolder(const std::string& name)
{
  const auto folder = std::filesystem::temp_directory_path() /
                      ("swe-atomic-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  return folder;
}

// Lowers the file-size limit for its lifetime. SIGXFSZ keeps its default (ending the process):
// the writes themselves must keep it from killing the process.
class FileSizeLimit
{
public:
  explicit FileSizeLimit(rlim_t bytes)
  {
    ::getrlimit(RLIMIT_FSIZE, &saved_);
    rlimit lowered = saved_;
    lowered.rlim_cur = bytes;
    ::setrlimit(RLIMIT_FSIZE, &lowered);
  }
  ~FileSizeLimit() { ::setrlimit(RLIMIT_FSIZE, &saved_); }

private:
  rlimit saved_{};
};
} // namespace

TEST(AtomicFile, WritesTheWholeFileAndReplacesTheOldOne)
{
  const auto folder = freshFolder("whole");
  const std::string path = (folder / "series.pvd").string();
  writeFileAtomically(path, "first");
  writeFileAtomically(path, std::string(100000, 'x'));
  EXPECT_EQ(contents(path), std::string(100000, 'x'));
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(folder), {}), 1);
  std::filesystem::remove_all(folder);
}

TEST(AtomicFile, AFailedWriteNamesTheFileAndCauseAndKeepsTheOldFile)
{
  const auto folder = freshFolder("limit");
  const std::string path = (folder / "swe.pvd").string();
  writeFileAtomically(path, "the complete listing");
  std::string message;
  {
    const FileSizeLimit limit(4096);
    try
    {
      writeFileAtomically(path, std::string(20000, 'y'));
    }
    catch (const Error& e)
    {
      message = e.what();
    }
  }
  EXPECT_NE(message.find("cannot write '" + path + "'"), std::string::npos) << message;
  EXPECT_NE(message.find("the file-size limit is reached"), std::string::npos) << message;
  EXPECT_EQ(contents(path), "the complete listing");
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(folder), {}), 1)
    << "a temporary file was left behind";
  std::filesystem::remove_all(folder);
}

TEST(AtomicFile, AFileAnotherLibraryWritesAppearsOnlyWhenCommitted)
{
  const auto folder = freshFolder("commit");
  const std::string path = (folder / "Depth.tif").string();
  {
    AtomicFile file(path);
    std::ofstream(file.temporaryPath()) << "half";
    EXPECT_TRUE(isTemporaryFileName(std::filesystem::path(file.temporaryPath()).filename()));
    // (destroyed uncommitted: the library failed)
  }
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_TRUE(std::filesystem::is_empty(folder));
  {
    AtomicFile file(path);
    std::ofstream(file.temporaryPath()) << "whole";
    file.commit();
  }
  EXPECT_EQ(contents(path), "whole");
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(folder), {}), 1);
  std::filesystem::remove_all(folder);
}

TEST(AtomicFile, CausesAreNamedForUsers)
{
  EXPECT_NE(writeFailureCause(ENOSPC).find("the disk is full"), std::string::npos);
  EXPECT_NE(writeFailureCause(EFBIG).find("ulimit -f"), std::string::npos);
  EXPECT_NE(writeFailureCause(EROFS).find("read-only"), std::string::npos);
}

TEST(AtomicFile, AFolderThatIsNotThereIsNamed)
{
  try
  {
    writeFileAtomically("/nonexistent-swe-folder/swe.pvd", "x");
    FAIL() << "wrote into a folder that does not exist";
  }
  catch (const Error& e)
  {
    EXPECT_NE(std::string(e.what()).find("'/nonexistent-swe-folder/swe.pvd'"), std::string::npos);
  }
}

// Threads of one process writing one file at once (a split run's ranks, the kernel cache's
// stores) each write under a name of their own: the file is one of theirs, whole, and nothing is
// left behind. With one temporary name a process, they truncated and renamed each other's.
TEST(AtomicFile, ThreadsWritingOneFileAtOnceLeaveOneWholeFile)
{
  const auto folder = freshFolder("threads");
  const std::string path = (folder / "program.bin").string();
  std::vector<std::string> texts;
  for (char c = 'a'; c < 'i'; ++c)
    texts.emplace_back(1 << 20, c);
  std::vector<int> errors(texts.size(), -1);
  std::vector<std::thread> threads;
  for (std::size_t k = 0; k < texts.size(); ++k)
    threads.emplace_back([&, k] { errors[k] = writeFileAtomicallyOrErrno(path, texts[k]); });
  for (std::thread& thread : threads)
    thread.join();
  for (const int error : errors)
    EXPECT_EQ(error, 0) << writeFailureCause(error);
  const std::string written = contents(path);
  EXPECT_NE(std::find(texts.begin(), texts.end(), written), texts.end());
  for (const auto& entry : std::filesystem::directory_iterator(folder))
    EXPECT_EQ(entry.path().filename(), "program.bin");
  std::filesystem::remove_all(folder);
}
} // namespace swe
