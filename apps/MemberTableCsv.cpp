#include "MemberTableCsv.h"

#include "Error.h"
#include "SeriesCsv.h"

#include <cstddef>
#include <vector>

namespace swe::cli
{
namespace
{
// A column's name without its unit ("level (m)" is level), in lower case.
std::string bareName(const std::string& column)
{
  const std::string name = lowercase(column);
  const auto unit = name.find(" (");
  return unit == std::string::npos ? name : name.substr(0, unit);
}

std::string variedNames()
{
  std::string text;
  for (int k = 0; k < kVariedCount; ++k)
    text += (k > 0 ? ", " : "") + std::string(variedName(static_cast<Varied>(k)));
  return text;
}
} // namespace

MemberTable readMemberTable(const std::string& file)
{
  const std::string name = "the members table '" + file + "'";
  const CsvNumbers csv =
    readCsvNumbers(file, { "the members table", "a value for each column (one row a member)" });
  if (csv.header.empty())
    throw Error(name + " needs a header naming its columns, e.g. member,manning,rain (the " +
                "names: " + variedNames() + "; a column member labels the rows)");
  MemberTable table;
  std::vector<std::size_t> read; // the file's column of each of the table's
  for (std::size_t c = 0; c < csv.header.size(); ++c)
  {
    const std::string column = bareName(csv.header[c]);
    if (column == "member")
      continue;
    try
    {
      table.columns.push_back(variedFromName(column));
    }
    catch (const Error&)
    {
      throw Error(name + ": the column '" + csv.header[c] +
                  "' names no parameter a member varies; name each column one of " + variedNames() +
                  " (or member, a label)");
    }
    read.push_back(c);
  }
  for (const std::vector<double>& row : csv.rows)
  {
    std::vector<double> values;
    for (std::size_t c : read)
      values.push_back(row[c]);
    table.rows.push_back(values);
  }
  try
  {
    checkMemberTable(table);
  }
  catch (const Error& e)
  {
    // (its messages name "the members table": this one is the file's)
    std::string message = e.what();
    const std::string table = "the members table";
    const auto at = message.find(table);
    if (at != std::string::npos)
      message.replace(at, table.size(), name);
    throw Error(message);
  }
  return table;
}
} // namespace swe::cli
