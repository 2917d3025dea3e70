#include "GridLayout.h"

namespace swe
{
namespace
{
constexpr std::uint64_t kRowAlignBytes = 128;
} // namespace

std::uint64_t roundUp(std::uint64_t value, std::uint64_t multiple)
{
  return (value + multiple - 1) / multiple * multiple;
}

std::uint64_t rowOffsetCells(std::uint64_t realSize)
{
  return kRowAlignBytes / realSize;
}

std::uint64_t rowPitchCells(std::uint64_t nx, std::uint64_t realSize)
{
  return roundUp(rowOffsetCells(realSize) + nx + kGhost, kRowAlignBytes / realSize);
}

std::uint64_t paddedCells(std::uint64_t nx, std::uint64_t ny, std::uint64_t realSize)
{
  return rowPitchCells(nx, realSize) * (ny + 2 * kGhost);
}
} // namespace swe
