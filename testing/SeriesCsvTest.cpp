// swe run's series files (apps/SeriesCsv): what spreadsheets write is read as written, and what
// would be read wrong (a decimal comma, a row of another width) is refused with the line.
#include "CsvTestFile.h"
#include "Error.h"
#include "SeriesCsv.h"

#include <gtest/gtest.h>

#include <string>

namespace
{
using swe::cli::readSeries;
using swe::cli::readSeriesColumns;
using swe::test::CsvFile;

// The message readSeriesColumns throws for text, or "" where it throws none.
std::string refusal(const std::string& text)
{
  return swe::test::refusalOf([](const std::string& path) { readSeriesColumns(path); }, text);
}

TEST(SeriesCsv, DecimalCommasAreRefusedNotTakenAsMoreColumns)
{
  // (read as three zones before: 0, 36, 5 and 72)
  const std::string message = refusal("time;zone0\n0;36,5\n600;40\n");
  EXPECT_NE(
    message.find("line 2: '0;36,5' uses decimal commas: write 36.5, not 36,5"), std::string::npos)
    << message;
  EXPECT_NE(refusal("0;36,5;72\n").find("write 36.5, not 36,5"), std::string::npos);
  EXPECT_NE(refusal("0\t1,25\n").find("write 1.25, not 1,25 (fields are separated by tabs)"),
    std::string::npos);
  EXPECT_NE(refusal("0;1.234,5\n").find("write 1234.5, not 1.234,5 (fields are separated by ';')"),
    std::string::npos);
  EXPECT_NE(refusal("\"0\",\"36,5\"\n").find("write 36.5, not 36,5"), std::string::npos);
}

TEST(SeriesCsv, EveryRowHasTheHeadersWidth)
{
  const std::string message = refusal("time,zone0\n0,1\n600,2,3\n");
  EXPECT_NE(message.find("line 3: '600,2,3' has 3 fields where the header (time, zone0) has 2"),
    std::string::npos)
    << message;
  EXPECT_NE(
    refusal("0,1,2\n600,2\n").find("has 2 fields where the first row has 3"), std::string::npos);
}

TEST(SeriesCsv, AByteOrderMarkIsNotAHeader)
{
  // (the first row was taken as column names: half of a two-row storm lost)
  const CsvFile file("\xEF\xBB\xBF"
                     "0,10\n600,80\n");
  const swe::Series series = readSeries(file.path());
  ASSERT_EQ(series.size(), 2u);
  EXPECT_EQ(series[0][0], 0);
  EXPECT_EQ(series[0][1], 10);
  EXPECT_EQ(series[1][1], 80);
}

TEST(SeriesCsv, QuotedNumbersAreNumbers)
{
  const CsvFile file("\"0\",\"36.5\"\r\n\"600\", \"80\"\r\n");
  const swe::Series series = readSeries(file.path());
  ASSERT_EQ(series.size(), 2u);
  EXPECT_EQ(series[0][1], 36.5);
  EXPECT_EQ(series[1][0], 600);
  const CsvFile named("\"time\";\"rain\"\n\"0\";\"1.5\"\n");
  const swe::Series rain = readSeries(named.path());
  ASSERT_EQ(rain.size(), 1u);
  EXPECT_EQ(rain[0][1], 1.5);
}

TEST(SeriesCsv, TheFormatsReadBeforeStillRead)
{
  const CsvFile commented("# a storm\ntime_s,intensity_mm_h\n0,0\n\n600, 80\n");
  EXPECT_EQ(readSeries(commented.path()).size(), 2u);
  const CsvFile blanks("0 1\n600   2\n 1200 3 \n");
  EXPECT_EQ(readSeries(blanks.path()).back()[1], 3);
  const CsvFile tabs("Time (s)\tRain (mm/h)\n0\t1\n600\t 2\n");
  EXPECT_EQ(readSeries(tabs.path()).back()[1], 2);
  // (spreadsheets pad rows with separators)
  const CsvFile padded("time;zone0;zone1;\n0;1;2;\n600;3;4;\n;;;\n");
  const std::vector<swe::Series> zones = readSeriesColumns(padded.path());
  ASSERT_EQ(zones.size(), 2u);
  EXPECT_EQ(zones[1][1][1], 4);
}

TEST(SeriesCsv, BadRowsAreNamed)
{
  EXPECT_NE(refusal("time,rain\n0,1\n600,abc\n").find("line 3: '600,abc' is not a row of numbers"),
    std::string::npos);
  EXPECT_NE(refusal("time\n0\n").find("has one column (time)"), std::string::npos);
  EXPECT_NE(refusal("# nothing\n").find("holds no rows of numbers"), std::string::npos);
}

TEST(SeriesCsv, ADirectoryIsNamedAsOne)
{
  char folder[] = "/tmp/swe-series-dir-XXXXXX";
  ASSERT_NE(::mkdtemp(folder), nullptr);
  try
  {
    readSeries(folder);
    ADD_FAILURE() << "a directory was read as a series";
  }
  catch (const swe::Error& e)
  {
    EXPECT_NE(std::string(e.what()).find("is a directory, not a CSV file"), std::string::npos)
      << e.what();
  }
  ::rmdir(folder);
}
} // namespace
