// Manning's n from land-use classes (io/ManningClasses): each open cell gets its class's n, bit
// for bit; closed cells are not looked up; what the table or the classes cannot give is refused
// with the class, the cell or the row.
#include "Error.h"
#include "ManningClasses.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

namespace
{
using swe::ManningTable;

const double kClosed = std::numeric_limits<double>::quiet_NaN();

std::string cellName(std::size_t k)
{
  return "cell " + std::to_string(k);
}

// The message manningFromClasses throws, or "" where it throws none.
std::string refusal(const std::vector<double>& classes, const ManningTable& table)
{
  try
  {
    swe::manningFromClasses(
      classes, std::vector<double>(classes.size(), 0.0), table, "LandUse", cellName);
  }
  catch (const swe::Error& e)
  {
    return e.what();
  }
  return "";
}

ManningTable table(std::vector<std::array<double, 2>> rows)
{
  return { "the Manning Table", std::move(rows) };
}

TEST(ManningClasses, EachOpenCellGetsItsClassesNBitForBit)
{
  // (0.1 + 0.2: an n whose bits a rounding on the way would change)
  const double odd = 0.1 + 0.2;
  const ManningTable classes = table({ { 1, 0.035 }, { 12, odd }, { -3, 0 }, { 40, 0.5 } });
  const std::vector<double> landUse = { 12, 1, 99, -3, 12 };
  const std::vector<double> bed = { 0, 5, kClosed, 1, 2 };
  const std::vector<double> n = swe::manningFromClasses(landUse, bed, classes, "LandUse", cellName);
  const std::vector<double> expected = { odd, 0.035, 0, 0, odd };
  ASSERT_EQ(n.size(), expected.size());
  EXPECT_EQ(std::memcmp(n.data(), expected.data(), n.size() * sizeof(double)), 0);
}

TEST(ManningClasses, ClassesWithoutARowAreNamedWithTheirCells)
{
  EXPECT_EQ(refusal({ 1, 5, 5, 7, 1, 5 }, table({ { 1, 0.03 } })),
    "the Manning class array 'LandUse' holds class 5 (3 cells), class 7 (1 cell), which the "
    "Manning Table has no row for: add a row (class, n) for each");
}

TEST(ManningClasses, AFractionalClassIsRefusedWithItsCell)
{
  EXPECT_EQ(refusal({ 1, 2.5 }, table({ { 1, 0.03 }, { 2, 0.04 } })),
    "the Manning class array 'LandUse' holds 2.5 at cell 1, not a whole-number class: give the "
    "land-use classes as whole numbers, as cell data (a point array is averaged over each "
    "cell's corners)");
}

TEST(ManningClasses, TheTablesRowsAreChecked)
{
  EXPECT_EQ(refusal({ 1 }, table({ { 1, 1.5 } })),
    "Manning coefficient must be in [0, 1] s/m^(1/3), got 1.5 in row (1, 1.5) of the Manning "
    "Table");
  EXPECT_EQ(refusal({ 1 }, table({ { 1, -0.01 } })),
    "Manning coefficient must be a finite number >= 0, got -0.01 in row (1, -0.01) of the "
    "Manning Table");
  EXPECT_NE(refusal({ 1 }, table({ { 1, std::nan("") } })).find("finite number >= 0, got nan"),
    std::string::npos);
  EXPECT_EQ(refusal({ 1 }, table({ { 1.5, 0.03 } })),
    "the class of row (1.5, 0.03) of the Manning Table is not a whole number: land-use classes "
    "are whole numbers (1, 2, 31)");
  EXPECT_EQ(refusal({ 1 }, table({ { 1, 0.03 }, { 1, 0.05 } })),
    "class 1 has two rows in the Manning Table (n 0.03 and 0.05): give it one");
}
} // namespace
