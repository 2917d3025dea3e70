#pragma once
// swe ensemble --members: an ensemble's members from a CSV file, one row a member, with a header
// naming the varied parameter of each column (manning, manning-factor, rain, inflow, level); a
// column named member labels the rows and is not read.
#include "EnsembleMembers.h"

#include <string>

namespace swe::cli
{
// The table of file, checked (checkMemberTable). Throws swe::Error naming the file: no header, a
// column no parameter is named, a bad row (readCsvNumbers), or checkMemberTable's.
MemberTable readMemberTable(const std::string& file);
} // namespace swe::cli
