#pragma once
// The arrays of the last outputs of one source, kept so that the next output refills them instead
// of allocating ~40 bytes a cell of fresh memory each frame (the page faults of first touch cost
// more than the fill itself: see PERFORMANCE.md, 'Decisions that stand').
#include "FrameArraySelection.h"

#include <vtkDataArray.h>
#include <vtkSmartPointer.h>

#include <array>

namespace swe
{
struct FrameArrays
{
  // Newest first. An array is refilled only while nothing but this cache holds it (reference
  // count 1), so an output a consumer still holds keeps its values. Two of each, because
  // ParaView's output port (vtkPVPostFilter) holds the last output's arrays until after the next
  // RequestData: the one before last is the one normally free.
  using Slots = std::array<vtkSmartPointer<vtkDataArray>, 2>;
  Slots Depth, FreeSurface, Momentum, Velocity;
  std::array<Slots, kKeptArrayCount> Kept; // MaxDepth ... Duration, Infiltration, Inflow
  // Shared by every output of one run, never refilled: the bed does not change. Reset it when
  // the run (its grid or bed) changes.
  vtkSmartPointer<vtkDataArray> Bed;
  // With the bed: vtkGhostType, HIDDENCELL where the bed is NaN (closed cells, outside the
  // domain), so that ParaView draws nothing there; null where there are none.
  vtkSmartPointer<vtkDataArray> Hidden;
};
} // namespace swe
