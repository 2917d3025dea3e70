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
  // Then the fields a state keeps (stateFields), copied in a run that has them, in Field's order
  // (keptField): the flood maps, the cumulative infiltration and the water balance's cumulative
  // inflow. frameArray(field) is the one of a kept field.
};
constexpr int kFirstKeptArray = static_cast<int>(FrameArray::Velocity) + 1;
constexpr int kKeptArrayCount = kKeptFieldCount;
constexpr int kFrameArrayCount = kFirstKeptArray + kKeptArrayCount;
// The frame array of kept field `kept` (Field::MaxDepth ... Field::Inflow).
constexpr FrameArray frameArray(Field kept)
{
  return static_cast<FrameArray>(
    kFirstKeptArray + static_cast<int>(kept) - static_cast<int>(kFirstKeptField));
}

// The arrays' names, in FrameArray's order: the kept fields' are the engine's (fieldName).
constexpr std::array<const char*, kFrameArrayCount> frameArrayNames()
{
  std::array<const char*, kFrameArrayCount> names{
    fieldName(Field::Depth), "FreeSurface", fieldName(Field::Bed), "Momentum", "Velocity"
  };
  for (int k = 0; k < kKeptArrayCount; ++k)
    names[static_cast<std::size_t>(kFirstKeptArray + k)] = fieldName(keptField(k));
  return names;
}
constexpr std::array<const char*, kFrameArrayCount> kFrameArrayNames = frameArrayNames();

// Host bytes a cell of the kept frame arrays takes at most (every array, two of each but the
// bed), with realSize bytes a value and `kept` arrays copied from the state's kept fields: for
// the memory check before a run (Simulation::check).
constexpr std::uint64_t frameArrayBytesPerCell(std::uint64_t realSize, std::uint64_t kept = 0)
{
  return (2 * (1 + 1 + 3 + 3 + kept) + 1) * realSize;
}

// Every frame array held: the selection's default.
constexpr std::array<bool, kFrameArrayCount> everyFrameArray()
{
  std::array<bool, kFrameArrayCount> held{};
  for (std::size_t a = 0; a < held.size(); ++a)
    held[a] = true;
  return held;
}

struct FrameArraySelection
{
  std::array<bool, kFrameArrayCount> holds = everyFrameArray();
  bool operator()(FrameArray a) const { return holds[static_cast<int>(a)]; }
};
} // namespace swe
