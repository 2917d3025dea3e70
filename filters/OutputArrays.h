#pragma once
// The "Output Arrays" property of the Shallow Water source and solver: a vtkDataArraySelection
// of the frame arrays' names (kFrameArrayNames), all of them held by default.
#include "FrameArraySelection.h"

class vtkDataArraySelection;

namespace swe
{
// The arrays the selection holds. Python may name any array: an unknown one throws swe::Error
// (the error of `swe run --arrays`, after "Output Arrays: ") rather than making a frame without
// it.
FrameArraySelection selectedFrameArrays(vtkDataArraySelection* arrays);

// Removes the names that are not frame arrays' from the selection.
void dropUnknownFrameArrays(vtkDataArraySelection* arrays);
} // namespace swe
