#pragma once
// Terrain and initial water from a 2D vtkImageData: shared by the Shallow Water Solver filter and
// `swe run --input`, so both read inputs the same way.
#include "InitialState.h"
#include "ManningClasses.h"

#include <string>
#include <vector>

class vtkImageData;
class vtkInformation;

namespace swe
{
struct ImageArrays
{
  std::string bed = "Bed"; // terrain elevation [m]; empty: automaticBedArray
  std::string depth;       // optional initial depth [m]
  std::string freeSurface; // optional initial water-surface elevation [m] (if no depth)
  std::string velocity;    // optional initial velocity (2 or 3 components) [m/s]
  // optional initial velocity from two one-component arrays (a GeoTIFF's bands), x and y [m/s],
  // in place of velocity
  std::string velocityX, velocityY;
  std::string manning; // optional Manning coefficient per cell
  // optional land-use class per cell (whole numbers), its n from manningTable, in place of manning
  std::string manningClass;
  ManningTable manningTable;
  std::string rain; // optional rain factor per cell (InitialState::rain)
  // optional Green-Ampt soil per cell: conductivity [mm/h], suction head [mm], deficit [-]
  std::string conductivity, suction, deficit;
  double initialWaterLevel = 0; // surface elevation where neither depth nor surface is given
};

// The simulation grid of a 2D image: one simulation cell per image cell. extent/spacing/origin
// as in vtkImageData; throws swe::Error for an empty image, a 3D one, one without cells, or
// non-square cells.
void imageGrid(const int extent[6],
  const double spacing[3],
  const double origin[3],
  int& nx,
  int& ny,
  double& cellSize,
  double cellOrigin[3]);

// The array an image's terrain is in when none is named: one named Bed, Elevation, DEM, Terrain
// or Band 1 (any case), else the only one-component array. Throws swe::Error listing the arrays.
std::string automaticBedArray(vtkImageData* image);

// Reads the named arrays (cell data, or point data averaged to cells) into an initial state on
// the image's cells. Throws swe::Error naming a missing array, a wrong type or component count,
// a non-finite value and its cell, or arrays that contradict each other (the velocity given by
// a vector array and by x and y arrays, or by one of x and y alone; the roughness by a Manning
// array and a class array); a class array's errors are manningFromClasses'.
InitialState imageInitialState(vtkImageData* image, const ImageArrays& arrays);

// A one-component array of the image's cells (point data averaged to cells), such as a map of
// source zones, read in the open cells of state (its terrain's, imageInitialState) and 0 in its
// closed ones. Throws swe::Error as imageInitialState does.
std::vector<double> imageCellValues(vtkImageData* image,
  const std::string& name,
  const std::string& role,
  const InitialState& state);
} // namespace swe
