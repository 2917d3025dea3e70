#pragma once
// Which cell arrays a frame holds, without VTK: what the "Output Arrays" property and the memory
// check before a run need to know about the frame arrays (FrameArrays.h holds the arrays).
#include "SimulationTypes.h"

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
  // Copied from the fields a state keeps (stateFields), in a run that has them: the flood maps,
  // the cumulative infiltration and the water balance's cumulative inflow.
  MaxDepth,
  MaxSpeed,
  MaxHazard,
  ArrivalTime,
  Duration,
  Infiltration,
  Inflow
};
constexpr int kFrameArrayCount = 12;
constexpr int kFirstKeptArray = static_cast<int>(FrameArray::MaxDepth);
constexpr int kKeptArrayCount = kFrameArrayCount - kFirstKeptArray;
// The state's field a kept array copies.
constexpr Field keptField(int keptArray)
{
  return keptArray == kKeptArrayCount - 1 ? Field::Inflow
         : keptArray == kKeptArrayCount - 2
           ? Field::Infiltration
           : static_cast<Field>(static_cast<int>(Field::MaxDepth) + keptArray);
}
constexpr const char* kFrameArrayNames[kFrameArrayCount] = { "Depth",
  "FreeSurface",
  "Bed",
  "Momentum",
  "Velocity",
  "MaxDepth",
  "MaxSpeed",
  "MaxHazard",
  "ArrivalTime",
  "Duration",
  "Infiltration",
  "Inflow" };

// Host bytes a cell of the kept frame arrays takes at most (every array, two of each but the
// bed), with realSize bytes a value and `kept` arrays copied from the state's kept fields: for
// the memory check before a run (Simulation::check).
constexpr std::uint64_t frameArrayBytesPerCell(std::uint64_t realSize, std::uint64_t kept = 0)
{
  return (2 * (1 + 1 + 3 + 3 + kept) + 1) * realSize;
}

struct FrameArraySelection
{
  std::array<bool, kFrameArrayCount>
    holds{ true, true, true, true, true, true, true, true, true, true, true, true };
  bool operator()(FrameArray a) const { return holds[static_cast<int>(a)]; }
};
} // namespace swe
