#include "SeriesCsv.h"

#include "Error.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

// Hand-written: fast-cpp-csv-parser (libfccp) fixes the column count and the separator at compile
// time, and a series file has any number of columns and the separator its spreadsheet chose.
namespace swe::cli
{
namespace
{
constexpr char kBlanks = ' '; // fields separated by runs of blanks (spaces or tabs)

struct Line
{
  int number = 0;
  std::string text;
};

bool blank(char c)
{
  return c == ' ' || c == '\t';
}

std::string trimmed(const std::string& text)
{
  std::size_t begin = 0, end = text.size();
  while (begin < end && blank(text[begin]))
    ++begin;
  while (end > begin && blank(text[end - 1]))
    --end;
  return text.substr(begin, end - begin);
}

// The file's lines that hold data (not blank, not a '#' comment), without a BOM or a CR.
std::vector<Line> contentLines(const std::string& file, const CsvKind& kind)
{
  const std::string named = kind.what + (" '" + file + "'");
  std::error_code error;
  if (std::filesystem::is_directory(file, error))
    throw Error(named + " is a directory, not a CSV file");
  std::ifstream in(file);
  if (!in)
    throw Error("cannot open " + named + ": " + std::strerror(errno));
  std::vector<Line> lines;
  std::string text;
  for (int number = 1; std::getline(in, text); ++number)
  {
    if (number == 1 && text.rfind("\xEF\xBB\xBF", 0) == 0)
      text.erase(0, 3);
    if (!text.empty() && text.back() == '\r')
      text.pop_back();
    const std::string content = trimmed(text);
    if (!content.empty() && content[0] != '#')
      lines.push_back({ number, text });
  }
  if (in.bad())
    throw Error("cannot read " + named + ": " + std::strerror(errno));
  return lines;
}

// The separator: the first of ';', tab and ',' that some line holds outside double quotes (so
// that "0;36,5" is one with a decimal comma, not three fields), else blanks.
char separatorOf(const std::vector<Line>& lines)
{
  bool seen[3] = { false, false, false };
  static const char candidates[3] = { ';', '\t', ',' };
  for (const Line& line : lines)
  {
    bool quoted = false;
    for (char c : line.text)
      if (c == '"')
        quoted = !quoted;
      else if (!quoted)
        for (int k = 0; k < 3; ++k)
          seen[k] = seen[k] || c == candidates[k];
  }
  for (int k = 0; k < 3; ++k)
    if (seen[k])
      return candidates[k];
  return kBlanks;
}

// The fields of text, unquoted ("" in quotes is a quote) and trimmed. Empty fields at the end
// are dropped: spreadsheets pad rows with separators.
std::vector<std::string> fieldsOf(const std::string& text, char separator)
{
  std::vector<std::string> fields;
  std::string field;
  bool inQuotes = false, quoted = false;
  const auto finish = [&]
  {
    fields.push_back(quoted ? field : trimmed(field));
    field.clear();
    quoted = false;
  };
  for (std::size_t k = 0; k < text.size(); ++k)
  {
    const char c = text[k];
    if (inQuotes)
    {
      if (c != '"')
        field += c;
      else if (k + 1 < text.size() && text[k + 1] == '"')
        field += text[++k];
      else
        inQuotes = false;
    }
    else if (separator == kBlanks ? blank(c) : c == separator)
    {
      if (separator != kBlanks || quoted || !field.empty())
        finish();
    }
    else if (c == '"' && !quoted && trimmed(field).empty())
    {
      field.clear(); // (blanks before the opening quote)
      inQuotes = quoted = true;
    }
    else if (!(quoted && blank(c))) // (blanks after the closing quote)
      field += c;                   // (text after a closing quote: not a number, refused as such)
  }
  if (separator != kBlanks || quoted || !field.empty())
    finish();
  while (!fields.empty() && fields.back().empty())
    fields.pop_back();
  return fields;
}

bool parseNumber(const std::string& text, double& value)
{
  if (text.empty())
    return false;
  char* end = nullptr;
  value = std::strtod(text.c_str(), &end);
  return end && *end == '\0';
}

// Whether text is a number written with a decimal comma (36,5; 1.234,5).
bool decimalComma(const std::string& text)
{
  const auto isDigit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
  bool between = false;
  for (std::size_t k = 1; k + 1 < text.size(); ++k)
    between = between || (text[k] == ',' && isDigit(text[k - 1]) && isDigit(text[k + 1]));
  return between && text.find_first_not_of("0123456789+-.,eE") == std::string::npos;
}

std::string separatorName(char separator)
{
  return separator == kBlanks ? "blanks"
         : separator == '\t'  ? "tabs"
                              : std::string("'") + separator + "'";
}

std::string joined(const std::vector<std::string>& names)
{
  std::string text;
  for (const std::string& name : names)
    text += (text.empty() ? "" : ", ") + name;
  return text;
}

std::string plural(std::size_t count, const char* what)
{
  return std::to_string(count) + " " + what + (count == 1 ? "" : "s");
}
} // namespace

CsvNumbers readCsvNumbers(const std::string& file, const CsvKind& kind)
{
  const std::vector<Line> lines = contentLines(file, kind);
  const char separator = separatorOf(lines);
  CsvNumbers csv;
  std::size_t columns = 0;
  for (const Line& line : lines)
  {
    const std::vector<std::string> fields = fieldsOf(line.text, separator);
    if (fields.empty())
      continue; // (a row of separators alone)
    const std::string where =
      "'" + file + "' line " + std::to_string(line.number) + ": '" + line.text + "' ";
    for (const std::string& field : fields)
      if (decimalComma(field))
      {
        // (1.234,5: the points group thousands)
        std::string point = field;
        point.erase(std::remove(point.begin(), point.end(), '.'), point.end());
        std::replace(point.begin(), point.end(), ',', '.');
        throw Error(
          where + "uses decimal commas: write " + point + ", not " + field +
          (separator == ',' ? std::string()
                            : " (fields are separated by " + separatorName(separator) + ")"));
      }
    std::vector<double> row(fields.size());
    std::size_t bad = fields.size();
    for (std::size_t k = fields.size(); k-- > 0;)
      if (!parseNumber(fields[k], row[k]))
        bad = k;
    if (bad < fields.size() && csv.rows.empty() && columns == 0)
    {
      csv.header = fields; // column names
      columns = fields.size();
      continue;
    }
    if (columns == 0)
      columns = fields.size();
    if (fields.size() != columns)
      throw Error(where + "has " + plural(fields.size(), "field") + " where " +
                  (csv.header.empty()
                      ? "the first row has " + std::to_string(columns)
                      : "the header (" + joined(csv.header) + ") has " + std::to_string(columns)) +
                  ": give every row " + kind.row);
    if (bad < fields.size())
      throw Error(where + "is not a row of numbers" +
                  (fields.size() > 1 ? " ('" + fields[bad] + "' is not a number)" : "") +
                  ": give every row " + kind.row);
    csv.rows.push_back(std::move(row));
  }
  return csv;
}

std::vector<Series> readSeriesColumns(const std::string& file)
{
  const CsvNumbers csv = readCsvNumbers(file);
  // (an empty file, or column names alone, would have been no rain or a side of 0)
  if (csv.rows.empty())
    throw Error("the series '" + file + "' holds no rows of numbers (time in s, then a value a " +
                "column): a series needs 2 or more");
  if (csv.rows.front().size() < 2)
    throw Error("the series '" + file + "' has one column (" +
                (csv.header.empty() ? std::string("no header") : csv.header.front()) +
                "): a series needs a time column [s] and a value column");
  std::vector<Series> columns(csv.rows.front().size() - 1);
  for (const std::vector<double>& row : csv.rows)
    for (std::size_t c = 0; c < columns.size(); ++c)
      columns[c].push_back({ row[0], row[c + 1] });
  return columns;
}

Series readSeries(const std::string& file)
{
  std::vector<Series> columns = readSeriesColumns(file);
  if (columns.size() > 1)
    throw Error("'" + file + "' has " + std::to_string(columns.size()) +
                " value columns; a series has one (time in s, value)");
  return columns.front();
}
} // namespace swe::cli
