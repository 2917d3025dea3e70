#pragma once
// What vtkShallowWaterBase keeps besides its properties, shared by its two source files
// (vtkShallowWaterBase.cxx: the properties; vtkShallowWaterBasePipeline.cxx: the requests).
#include "vtkShallowWaterBase.h"

#include "FilterRun.h"

#include <vtkDataArraySelection.h>
#include <vtkNew.h>
#include <vtkStringArray.h>

#include <array>
#include <vector>

class vtkShallowWaterBase::vtkInternals
{
public:
  explicit vtkInternals(vtkShallowWaterBase* self)
    : Run(self)
  {
  }

  swe::FilterRun Run;
  // Which cell arrays the outputs hold ("Output Arrays"): all by default.
  vtkNew<vtkDataArraySelection> CellArrays;
  vtkNew<vtkStringArray> Devices;
  bool DevicesListed = false;
  // Whether the last RequestInformation failed: ParaView asks for data even then, and that
  // request must fail too (quietly: its error has been said).
  bool InformationFailed = false;
  // The Rainfall Series property: (time, mm/h) pairs.
  std::vector<std::array<double, 2>> RainfallSeries;
};
