#pragma once
// What the CSV readers' tests share: a file holding a text, and the message a reader refuses
// it with.
#include "Error.h"

#include <cstdio>
#include <fstream>
#include <string>
#include <unistd.h>

namespace swe::test
{
// A file holding text, removed at the end of the test.
class CsvFile
{
public:
  explicit CsvFile(const std::string& text)
  {
    char name[] = "/tmp/swe-csv-XXXXXX";
    const int fd = ::mkstemp(name);
    ::close(fd);
    path_ = name;
    std::ofstream(path_, std::ios::binary) << text;
  }
  ~CsvFile() { std::remove(path_.c_str()); }
  CsvFile(const CsvFile&) = delete;
  CsvFile& operator=(const CsvFile&) = delete;
  const std::string& path() const { return path_; }

private:
  std::string path_;
};

// The message read(path) throws for a file holding text, or "" where it throws none.
template<class Read>
std::string refusalOf(const Read& read, const std::string& text)
{
  const CsvFile file(text);
  try
  {
    read(file.path());
  }
  catch (const swe::Error& e)
  {
    return e.what();
  }
  return "";
}
} // namespace swe::test
