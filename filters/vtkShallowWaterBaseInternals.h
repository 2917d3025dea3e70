#pragma once
// What vtkShallowWaterBase keeps besides its properties, shared by its two source files
// (vtkShallowWaterBase.cxx: the properties; vtkShallowWaterBasePipeline.cxx: the requests).
#include "vtkShallowWaterBase.h"

#include "FilterRun.h"

#include <vtkDataArraySelection.h>
#include <vtkNew.h>
#include <vtkStringArray.h>

#include "ParameterTable.h"
#include "Parameters.h"

#include <array>
#include <optional>
#include <vector>

class vtkShallowWaterBase::vtkInternals
{
public:
  explicit vtkInternals(vtkShallowWaterBase* self)
    : Run(self)
  {
  }

  swe::FilterRun Run;
  // The scalar properties (Gravity, ManningCoefficient, ...: swe::scalarParameters()).
  swe::ScalarValues Scalars = swe::defaultScalarValues();
  // Which cell arrays the outputs hold ("Output Arrays"): all by default.
  vtkNew<vtkDataArraySelection> CellArrays;
  // Those of them the current settings make, for the panel (GetMadeCellArraySelection).
  vtkNew<vtkDataArraySelection> MadeCellArrays;
  vtkNew<vtkStringArray> Devices;
  bool DevicesListed = false;
  // Whether the last RequestInformation failed: ParaView asks for data even then, and that
  // request must fail too (quietly: its error has been said).
  bool InformationFailed = false;
  // The End Time and Output Interval last warned of (WarnOfEndTimeBetweenOutputs): once each.
  std::array<double, 2> WarnedOutputTimes{ -1, -1 };
  // The series properties: Rainfall Series ((s, mm/h) pairs), then each side's (west, east,
  // south, north: (s, m^2/s or m)), then the Gauges ((x, y) in the output's coordinates).
  std::array<swe::Series, 6> Series;
  // The Point Sources property's rows: (x, y, time, discharge).
  std::vector<std::array<double, 4>> SourceRows;
  // The time up to which the last frame's tables and gauge markers hold rows: filled again up to
  // it when only they are asked for (ProcessRequest).
  double RecordsUpTo = 0;
};
