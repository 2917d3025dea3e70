// swe's members tables (apps/MemberTableCsv): the header names each column's parameter, a member
// column is a label, and a column or value that cannot be read is refused naming it.
#include "CsvTestFile.h"
#include "Error.h"
#include "MemberTableCsv.h"

#include <gtest/gtest.h>

#include <string>

namespace
{
using swe::Varied;
using swe::cli::readMemberTable;
using swe::test::CsvFile;

// The message readMemberTable throws for text, or "" where it throws none.
std::string refusal(const std::string& text)
{
  return swe::test::refusalOf([](const std::string& path) { readMemberTable(path); }, text);
}

bool contains(const std::string& text, const std::string& part)
{
  return text.find(part) != std::string::npos;
}

TEST(MemberTableCsv, ReadsTheColumnsTheHeaderNames)
{
  const CsvFile file("Member,manning,Rain,level (m)\n1,0.03,1.0,2.5\n2,0.05,1.5,3\n");
  const swe::MemberTable table = readMemberTable(file.path());
  EXPECT_EQ(table.columns,
    (std::vector<Varied>{ Varied::Manning, Varied::RainFactor, Varied::WaterLevel }));
  ASSERT_EQ(table.members(), 2);
  EXPECT_EQ(table.rows[0], (std::vector<double>{ 0.03, 1.0, 2.5 }));
  EXPECT_EQ(table.rows[1], (std::vector<double>{ 0.05, 1.5, 3 }));

  // The member column, a label, may stand anywhere or not at all.
  const CsvFile labelLast("inflow;manning-factor;member\n0.5;1.2;7\n");
  const swe::MemberTable last = readMemberTable(labelLast.path());
  EXPECT_EQ(last.columns, (std::vector<Varied>{ Varied::InflowFactor, Varied::ManningFactor }));
  EXPECT_EQ(last.rows, (std::vector<std::vector<double>>{ { 0.5, 1.2 } }));
  const CsvFile unlabelled("rain\n0.8\n1.2\n");
  EXPECT_EQ(readMemberTable(unlabelled.path()).members(), 2);
}

TEST(MemberTableCsv, RefusesAColumnNoParameterIsNamed)
{
  const std::string wind = refusal("member,manning,wind\n1,0.03,2\n");
  EXPECT_TRUE(contains(wind,
    "the column 'wind' names no parameter a member varies; name each "
    "column one of manning, manning-factor, rain, inflow, level"))
    << wind;
  const std::string none = refusal("0.03,1\n0.05,2\n");
  EXPECT_TRUE(contains(none, "needs a header naming its columns")) << none;
  EXPECT_TRUE(contains(refusal("member\n1\n2\n"), "has no columns"));
  EXPECT_TRUE(contains(refusal("rain,rain\n1,2\n"), "the column 'rain' twice"));
  EXPECT_TRUE(contains(refusal("member,rain\n"), "holds 0 members"));
}

TEST(MemberTableCsv, RefusesABadValueNamingTheMember)
{
  const std::string word = refusal("member,rain\n1,1.0\n2,lots\n");
  EXPECT_TRUE(contains(word, "line 3")) << word;
  const CsvFile file("member,manning\n1,0.03\n2,0\n");
  std::string zero;
  try
  {
    readMemberTable(file.path());
  }
  catch (const swe::Error& e)
  {
    zero = e.what();
  }
  EXPECT_TRUE(contains(zero,
    "member 2 of the members table '" + file.path() +
      "', column 'manning': 0 is outside manning's range (0, 1]"))
    << zero;
}
} // namespace
