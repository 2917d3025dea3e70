#pragma once
// Manning's n from a land-use class raster and a table of (class, n), as flood studies map their
// land use: the per-cell Manning field the engine takes (InitialState::manning). VTK-free: swe run
// reads the table from a CSV file (--manning-table), the solver from its Manning Table property,
// and imageInitialState reads the class array.
#include <array>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace swe
{
struct ManningTable
{
  // How messages name it, as the user gave it: "the Manning Table", "the Manning table 'a.csv'"
  std::string name = "the Manning Table";
  std::vector<std::array<double, 2>> rows; // (class, n [s/m^(1/3)])
};

// Throws swe::Error naming the table and row for a class that is not a whole number, a class
// given twice, or an n outside the range a Manning array's values have ([0, kMaxManning]).
void checkManningTable(const ManningTable& table);

// Each cell's n: its class (classes, a value a cell, x fastest) looked up in the table; cells
// where bed is NaN (closed, outside the domain) are not looked up and get 0. arrayName names the
// class array and cellName(k) cell k in messages. Throws swe::Error (checkManningTable's, or)
// naming the first cell whose class is not a whole number, or the classes the table has no row
// for, with the number of cells holding each.
std::vector<double> manningFromClasses(const std::vector<double>& classes,
  const std::vector<double>& bed,
  const ManningTable& table,
  const std::string& arrayName,
  const std::function<std::string(std::size_t)>& cellName);
} // namespace swe
