#pragma once
// Time series from CSV files (--rain-series, --rain-zones, --boundary-series, --source): a time
// column [s] and one value column or more, as spreadsheets write them.
#include "Parameters.h"

#include <string>
#include <vector>

namespace swe::cli
{
// The rows of a CSV file of numbers: fields separated by ';', a tab, ',' or blanks (the first of
// these the file holds outside quotes), a field in double quotes or not; a UTF-8 BOM, blank
// lines and lines starting with '#' are skipped, and a first row that is not all numbers is the
// header. Every row has the header's number of fields (else the first row's). Throws swe::Error
// naming the file and line of a bad row, a decimal comma (36,5) or a directory.
struct CsvNumbers
{
  std::vector<std::string> header; // the column names; empty: none
  std::vector<std::vector<double>> rows;
};
// What the file holds, as its messages name it.
struct CsvKind
{
  const char* what = "the series";                     // "cannot open the series 'a.csv'"
  const char* row = "a time [s] and a value a column"; // "give every row a time [s] and ..."
};
CsvNumbers readCsvNumbers(const std::string& file, const CsvKind& kind = {});

// A CSV of a time column and several value columns (rain zones: one a zone), a series each.
std::vector<Series> readSeriesColumns(const std::string& file);

// A CSV of a time column and one value column (--rain-series, a side's or a source's series).
Series readSeries(const std::string& file);
} // namespace swe::cli
