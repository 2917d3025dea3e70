#include "ManningClasses.h"

#include "Error.h"
#include "Parameters.h"

#include <cmath>
#include <map>

namespace swe
{
namespace
{
bool wholeNumber(double value)
{
  return std::isfinite(value) && std::nearbyint(value) == value;
}
} // namespace

void checkManningTable(const ManningTable& table)
{
  std::map<double, double> seen;
  for (const auto& [kind, n] : table.rows)
  {
    const std::string row =
      "row (" + formatValue(kind) + ", " + formatValue(n) + ") of " + table.name;
    if (!wholeNumber(kind))
      throw Error("the class of " + row +
                  " is not a whole number: land-use classes are whole numbers (1, 2, 31)");
    // (the range and words of a Manning array's values, InitialState::validate)
    if (!(n >= 0) || !std::isfinite(n))
      throw Error(
        "Manning coefficient must be a finite number >= 0, got " + formatValue(n) + " in " + row);
    if (n > kMaxManning)
      throw Error("Manning coefficient must be in [0, " + formatValue(kMaxManning) +
                  "] s/m^(1/3), got " + formatValue(n) + " in " + row);
    if (!seen.emplace(kind, n).second)
      throw Error("class " + formatValue(kind) + " has two rows in " + table.name + " (n " +
                  formatValue(seen[kind]) + " and " + formatValue(n) + "): give it one");
  }
}

std::vector<double> manningFromClasses(const std::vector<double>& classes,
  const std::vector<double>& bed,
  const ManningTable& table,
  const std::string& arrayName,
  const std::function<std::string(std::size_t)>& cellName)
{
  checkManningTable(table);
  std::map<double, double> nOfClass;
  for (const auto& [kind, n] : table.rows)
    nOfClass[kind] = n;
  std::vector<double> manning(classes.size(), 0.0);
  std::map<double, std::size_t> missing; // class -> cells holding it
  for (std::size_t k = 0; k < classes.size(); ++k)
  {
    if (std::isnan(bed[k]))
      continue; // (closed: outside the domain)
    if (!wholeNumber(classes[k]))
      throw Error("the Manning class array '" + arrayName + "' holds " + formatValue(classes[k]) +
                  " at " + cellName(k) +
                  ", not a whole-number class: give the land-use classes as whole numbers, as "
                  "cell data (a point array is averaged over each cell's corners)");
    const auto found = nOfClass.find(classes[k]);
    if (found == nOfClass.end())
      ++missing[classes[k]];
    else
      manning[k] = found->second;
  }
  if (missing.empty())
    return manning;
  std::string which;
  int listed = 0;
  for (const auto& [kind, cells] : missing)
    if (++listed <= 8)
      which += std::string(which.empty() ? "" : ", ") + "class " + formatValue(kind) + " (" +
               std::to_string(cells) + (cells == 1 ? " cell)" : " cells)");
  if (missing.size() > 8)
    which += " and " + std::to_string(missing.size() - 8) + " more classes";
  throw Error("the Manning class array '" + arrayName + "' holds " + which + ", which " +
              table.name + " has no row for: add a row (class, n) for " +
              (missing.size() == 1 ? "it" : "each"));
}
} // namespace swe
