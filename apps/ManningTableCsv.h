#pragma once
// swe run --manning-table: Manning's n of each land-use class from a CSV file with a header naming
// the columns class and n (others may follow), as the solver's Manning Table property holds them.
#include "ManningClasses.h"

#include <string>

namespace swe::cli
{
// The table of file, checked (checkManningTable). Throws swe::Error naming the file: no header,
// no class or n column, no rows, a bad row (readCsvNumbers), or checkManningTable's.
ManningTable readManningTable(const std::string& file);
} // namespace swe::cli
