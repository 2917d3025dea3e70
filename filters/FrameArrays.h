#pragma once
// The arrays of the last outputs of one source, kept so that the next output refills them instead
// of allocating ~40 bytes a cell of fresh memory each frame (at 4096^2 the page faults of first
// touch cost three times the fill itself).
#include <vtkDataArray.h>
#include <vtkSmartPointer.h>

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
  Velocity
};
constexpr int kFrameArrayCount = 5;
constexpr const char* kFrameArrayNames[kFrameArrayCount] = { "Depth",
  "FreeSurface",
  "Bed",
  "Momentum",
  "Velocity" };

// Host bytes a cell of the kept frame arrays takes at most (every array, two of each but the
// bed), with realSize bytes a value: for the memory check before a run (Simulation::check).
constexpr std::uint64_t frameArrayBytesPerCell(std::uint64_t realSize)
{
  return (2 * (1 + 1 + 3 + 3) + 1) * realSize;
}

struct FrameArraySelection
{
  std::array<bool, kFrameArrayCount> holds{ true, true, true, true, true };
  bool operator()(FrameArray a) const { return holds[static_cast<int>(a)]; }
};

struct FrameArrays
{
  // Newest first. An array is refilled only while nothing but this cache holds it (reference
  // count 1), so an output a consumer still holds keeps its values. Two of each, because
  // ParaView's output port (vtkPVPostFilter) holds the last output's arrays until after the next
  // RequestData: the one before last is the one normally free.
  using Slots = std::array<vtkSmartPointer<vtkDataArray>, 2>;
  Slots Depth, FreeSurface, Momentum, Velocity;
  // Shared by every output of one run, never refilled: the bed does not change. Reset it when
  // the run (its grid or bed) changes.
  vtkSmartPointer<vtkDataArray> Bed;
};
} // namespace swe
