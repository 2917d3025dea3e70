#pragma once
// The "Output Arrays" property of the Shallow Water source and solver: a vtkDataArraySelection
// of the frame arrays' names (kFrameArrayNames), all of them held by default, and the list of
// them that the panel shows: those the current settings make.
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

// Which of the arrays a run keeps besides its state the settings make.
struct KeptArraysMade
{
  bool floodMaps = false;    // MaxDepth, MaxSpeed, MaxHazard, ArrivalTime, Duration
  bool infiltration = false; // Infiltration (Green-Ampt)
  bool inflow = false;       // Inflow (the water balance)
  // Whether it makes kept field `field` (keptField).
  bool makes(Field field) const
  {
    return field == Field::Infiltration ? infiltration
           : field == Field::Inflow     ? inflow
                                        : isFloodMap(field) && floodMaps;
  }
};

// Fills `made` with the frame arrays a run with these settings makes, each ticked as in `all`:
// the list "Output Arrays" shows, so that it offers no array a run would not make. `all` keeps
// the ticks of the others, for when the settings make them again.
void listMadeFrameArrays(vtkDataArraySelection* all,
  const KeptArraysMade& kept,
  vtkDataArraySelection* made);
} // namespace swe
