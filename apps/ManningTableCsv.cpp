#include "ManningTableCsv.h"

#include "Error.h"
#include "SeriesCsv.h"

#include <algorithm>
#include <cctype>

namespace swe::cli
{
namespace
{
std::string lowercased(std::string text)
{
  std::transform(text.begin(),
    text.end(),
    text.begin(),
    [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// The column of header called name (any case; "n (s/m^1/3)" is n with its unit), or -1.
int columnOf(const std::vector<std::string>& header, const std::string& name)
{
  for (std::size_t c = 0; c < header.size(); ++c)
  {
    const std::string column = lowercased(header[c]);
    if (column == name || column.rfind(name + " (", 0) == 0)
      return static_cast<int>(c);
  }
  return -1;
}

std::string joined(const std::vector<std::string>& names)
{
  std::string text;
  for (const std::string& name : names)
    text += (text.empty() ? "" : ", ") + name;
  return text;
}
} // namespace

ManningTable readManningTable(const std::string& file)
{
  ManningTable table;
  table.name = "the Manning table '" + file + "'";
  const CsvNumbers csv =
    readCsvNumbers(file, { "the Manning table", "a class and its n (class,n)" });
  const int classColumn = columnOf(csv.header, "class"), nColumn = columnOf(csv.header, "n");
  if (classColumn < 0 || nColumn < 0)
    throw Error(table.name + " needs a header naming its columns class and n, e.g. class,n (" +
                (csv.header.empty() ? "it has none" : "it has " + joined(csv.header)) + ")");
  if (csv.rows.empty())
    throw Error(table.name + " holds no rows (class, n): give a row for each class of " +
                "--manning-class-array");
  for (const std::vector<double>& row : csv.rows)
    table.rows.push_back(
      { row[static_cast<std::size_t>(classColumn)], row[static_cast<std::size_t>(nColumn)] });
  checkManningTable(table);
  return table;
}
} // namespace swe::cli
