#pragma once
// Which cell arrays a frame holds, without VTK: what the "Output Arrays" property and the memory
// check before a run need to know about the frame arrays (FrameArrays.h holds the arrays).
#include <array>
#include <cstdint>

namespace swe
{
// The cell arrays of a frame, in the order ParaView lists them, and which of them an output holds
// (the "Output Arrays" property): every one unless the user leaves some out, to save the memory
// and the time of arrays they do not look at (24 bytes a cell for momentum and velocity in fp32).
enum class FrameArray
{
  Depth,
  FreeSurface,
  Bed,
  Momentum,
  Velocity,
  // The flood maps (Field::MaxDepth on), in a run that keeps them.
  MaxDepth,
  MaxSpeed,
  MaxHazard,
  ArrivalTime,
  Duration
};
constexpr int kFrameArrayCount = 10;
constexpr int kFirstFloodMapArray = static_cast<int>(FrameArray::MaxDepth);
constexpr const char* kFrameArrayNames[kFrameArrayCount] = { "Depth",
  "FreeSurface",
  "Bed",
  "Momentum",
  "Velocity",
  "MaxDepth",
  "MaxSpeed",
  "MaxHazard",
  "ArrivalTime",
  "Duration" };

// Host bytes a cell of the kept frame arrays takes at most (every array, two of each but the
// bed), with realSize bytes a value: for the memory check before a run (Simulation::check).
constexpr std::uint64_t frameArrayBytesPerCell(std::uint64_t realSize, bool floodMaps = false)
{
  return (2 * (1 + 1 + 3 + 3 + (floodMaps ? 5 : 0)) + 1) * realSize;
}

struct FrameArraySelection
{
  std::array<bool, kFrameArrayCount>
    holds{ true, true, true, true, true, true, true, true, true, true };
  bool operator()(FrameArray a) const { return holds[static_cast<int>(a)]; }
};
} // namespace swe
