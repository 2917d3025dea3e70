#include "ImageInitialState.h"

#include "Error.h"
#include "RasterCheck.h"

#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkFieldData.h>
#include <vtkImageData.h>
#include <vtkPointData.h>
#include <vtkStringArray.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <tuple>

namespace swe
{
namespace
{
// Cell (i, j) of the image's cells as VTK numbers them (from its extent's start: a piece of a
// larger image names the cell of the whole).
std::string cellIndex(vtkImageData* image, int i, int j)
{
  const int* extent = image->GetExtent();
  return std::to_string(i + extent[0]) + ", " + std::to_string(j + extent[2]);
}

std::string arrayList(vtkImageData* image)
{
  std::string names;
  for (vtkFieldData* data : { static_cast<vtkFieldData*>(image->GetCellData()),
         static_cast<vtkFieldData*>(image->GetPointData()) })
    for (int a = 0; a < data->GetNumberOfArrays(); ++a)
      if (const char* name = data->GetArrayName(a))
        names += (names.empty() ? "" : ", ") + std::string(name);
  return names.empty() ? "none" : names;
}

// components values per cell (x fastest), from cell data or from point data averaged over each
// cell's four corners.
// The one-component numeric arrays of the image, cell data first.
std::vector<std::string> scalarArrays(vtkImageData* image)
{
  std::vector<std::string> names;
  for (vtkFieldData* data : { static_cast<vtkFieldData*>(image->GetCellData()),
         static_cast<vtkFieldData*>(image->GetPointData()) })
    for (int a = 0; a < data->GetNumberOfArrays(); ++a)
    {
      vtkDataArray* array = data->GetArray(a);
      if (array && array->GetName() && array->GetNumberOfComponents() == 1)
        names.emplace_back(array->GetName());
    }
  return names;
}

bool sameName(const std::string& a, const std::string& b)
{
  return a.size() == b.size() &&
         std::equal(a.begin(),
           a.end(),
           b.begin(),
           [](char x, char y) { return std::tolower(x) == std::tolower(y); });
}

// Where an array's values lie outside the domain: the terrain's no-data (NO_DATA_VALUE, NaN)
// become closed cells (NaN); the other arrays are not read in closed cells (0 there).
struct OutsideDomain
{
  const double* noData = nullptr;           // the terrain's: these values and NaN close a cell
  const std::vector<double>* bed = nullptr; // the other arrays': NaN marks a closed cell
};

// An array must have a value for every cell (or point) of the grid: a damaged file or a filter
// upstream can give fewer (read past their end) or more (belonging to another grid).
void requireLength(vtkImageData* image,
  vtkDataArray* array,
  const std::string& name,
  bool onPoints,
  const std::string& role)
{
  const vtkIdType grid = onPoints ? image->GetNumberOfPoints() : image->GetNumberOfCells();
  const vtkIdType tuples = array->GetNumberOfTuples();
  if (tuples == grid)
    return;
  int dims[3];
  image->GetDimensions(dims);
  const std::string where = onPoints ? "points" : "cells";
  const int shift = onPoints ? 0 : 1;
  throw Error("the " + role + " array '" + name + "' has " + std::to_string(tuples) +
              " values for the image's " + std::to_string(grid) + " " + where + " (" +
              std::to_string(dims[0] - shift) + " x " + std::to_string(dims[1] - shift) +
              "): the file or filter it comes from is damaged, or the array belongs to another "
              "grid");
}

std::vector<double> cellValues(vtkImageData* image,
  const std::string& name,
  const std::string& role,
  int minComponents,
  int maxComponents,
  int components,
  OutsideDomain outside = {})
{
  int dims[3];
  image->GetDimensions(dims);
  const int nx = dims[0] - 1, ny = dims[1] - 1;
  vtkAbstractArray* found = image->GetCellData()->GetAbstractArray(name.c_str());
  const bool onPoints = found == nullptr;
  if (onPoints)
    found = image->GetPointData()->GetAbstractArray(name.c_str());
  if (!found)
    throw Error("the input has no array '" + name + "' for the " + role +
                " (arrays: " + arrayList(image) + ")");
  auto* array = vtkDataArray::SafeDownCast(found);
  if (!array)
    throw Error(
      "the " + role + " array '" + name + "' is not numeric (" + found->GetClassName() + ")");
  const int have = array->GetNumberOfComponents();
  if (have < minComponents || have > maxComponents)
    throw Error(
      "the " + role + " array '" + name + "' has " + std::to_string(have) +
      " components, expected " + std::to_string(minComponents) +
      (maxComponents > minComponents ? " to " + std::to_string(maxComponents) : std::string()));
  requireLength(image, array, name, onPoints, role);
  std::vector<double> values(static_cast<std::size_t>(nx) * ny * components);
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i)
    {
      const std::size_t cell = static_cast<std::size_t>(j) * nx + i;
      if (outside.bed && std::isnan((*outside.bed)[cell]))
        continue; // (a closed cell: 0)
      for (int c = 0; c < components; ++c)
      {
        // A point array's cell value is the mean of its corners; a no-data corner closes it.
        const vtkIdType p = static_cast<vtkIdType>(j) * dims[0] + i;
        const vtkIdType corners[4] = { p, p + 1, p + dims[0], p + dims[0] + 1 };
        const vtkIdType own[1] = { static_cast<vtkIdType>(cell) };
        const vtkIdType* points = onPoints ? corners : own;
        const int count = onPoints ? 4 : 1;
        double v = 0;
        for (int q = 0; q < count; ++q)
        {
          const double read = array->GetComponent(points[q], c);
          v += outside.noData && read == *outside.noData ? std::numeric_limits<double>::quiet_NaN()
                                                         : read;
        }
        v /= count;
        if (!std::isfinite(v) && !(outside.noData && std::isnan(v)))
          throw Error("the " + role + " array '" + name + "' is not finite at cell (" +
                      cellIndex(image, i, j) + ")");
        values[cell * components + c] = v;
      }
    }
  return values;
}
// A DEM's no-data value (its NO_DATA_VALUE field data, as ParaView's GDAL reader gives it), a
// number that would read as a pit or a tower; NaN where it has none (NaN is no data anyway).
double noDataValue(vtkImageData* image)
{
  auto* noData =
    vtkDataArray::SafeDownCast(image->GetFieldData()->GetAbstractArray("NO_DATA_VALUE"));
  return noData && noData->GetNumberOfTuples() > 0 ? noData->GetComponent(0, 0)
                                                   : std::numeric_limits<double>::quiet_NaN();
}
} // namespace

std::string automaticBedArray(vtkImageData* image)
{
  const std::vector<std::string> candidates = scalarArrays(image);
  // The names DEMs come with: ours, the GDAL Raster Reader's (Elevation with Collate Bands,
  // Band 1 without) and common ones.
  for (const char* known : { "Bed", "Elevation", "DEM", "Terrain", "Band 1" })
    for (const std::string& name : candidates)
      if (sameName(name, known))
        return name;
  if (candidates.size() == 1)
    return candidates.front();
  if (candidates.empty())
    throw Error("the input has no array for the terrain (arrays: " + arrayList(image) +
                "): the solver needs the terrain's elevation, one number a cell or point");
  throw Error("choose the input array that holds the terrain (Bed Array): none of the input's "
              "arrays (" +
              arrayList(image) +
              ") is named Bed, Elevation, DEM, Terrain or Band 1, and more than one could be");
}

void imageGrid(const int extent[6],
  const double spacing[3],
  const double origin[3],
  int& nx,
  int& ny,
  double& cellSize,
  double cellOrigin[3])
{
  const int px = extent[1] - extent[0] + 1, py = extent[3] - extent[2] + 1;
  const int pz = extent[5] - extent[4] + 1;
  // An empty image has an inverted extent (0 -1 0 -1 0 -1): that is no data, not a 3D image.
  if (px < 1 || py < 1 || pz < 1)
    throw Error("the input image is empty (no cells): its extent is " + std::to_string(extent[0]) +
                " " + std::to_string(extent[1]) + " " + std::to_string(extent[2]) + " " +
                std::to_string(extent[3]) + " " + std::to_string(extent[4]) + " " +
                std::to_string(extent[5]) +
                "; the solver needs a 2D image of at least 2 x 2 points (1 x 1 cells): check "
                "that the file, reader or source it comes from produced data");
  if (pz != 1)
    throw Error("the input must be a 2D image (a single layer of points in z), got " +
                std::to_string(pz - 1) + " layers of cells");
  if (px < 2 || py < 2)
    throw Error("the input image must have at least 2 x 2 points (1 x 1 cells), got " +
                std::to_string(px) + " x " + std::to_string(py));
  if (!(spacing[0] > 0) || std::fabs(spacing[0] - spacing[1]) > 1e-9 * spacing[0])
    throw Error("the input's cells must be square with a positive size, got spacing " +
                formatValue(spacing[0]) + " x " + formatValue(spacing[1]));
  nx = px - 1;
  ny = py - 1;
  cellSize = spacing[0];
  cellOrigin[0] = origin[0] + extent[0] * spacing[0];
  cellOrigin[1] = origin[1] + extent[2] * spacing[1];
  cellOrigin[2] = origin[2] + extent[4] * spacing[2];
}

namespace
{
// A DEM in latitude and longitude has cells of a thousandth of a degree (millimetres here), one in
// feet cells 3.3 times too long: refused by the image's MAP_PROJECTION (from the GDAL reader).
void requireMetreImage(vtkImageData* image)
{
  auto* crs =
    vtkStringArray::SafeDownCast(image->GetFieldData()->GetAbstractArray("MAP_PROJECTION"));
  if (!crs || crs->GetNumberOfValues() == 0)
    return;
  const int* extent = image->GetExtent();
  const double* spacing = image->GetSpacing();
  const double* corner = image->GetOrigin();
  requireMetreCrs(crs->GetValue(0),
    corner[0] + spacing[0] * (extent[0] + extent[1]) / 2,
    corner[1] + spacing[1] * (extent[2] + extent[3]) / 2);
}

// The initial depths into state.h: from the depth array, else the free-surface array or the
// initial water level over the terrain in state.bed.
void fillWater(vtkImageData* image,
  const ImageArrays& optional,
  double initialWaterLevel,
  const OutsideDomain& closed,
  InitialState& state)
{
  const int nx = state.nx;
  if (!optional.depth.empty())
  {
    state.h = cellValues(image, optional.depth, "depth", 1, 1, 1, closed);
    // (one would be left unread without a word: the solver's Depth Array defaults to Band 2)
    if (!optional.freeSurface.empty())
      throw Error("the initial water is given twice, by the depth array '" + optional.depth +
                  "' and the free-surface array '" + optional.freeSurface +
                  "': set one of them (Depth Array or Free Surface Array) to None");
    for (std::size_t k = 0; k < state.h.size(); ++k)
      if (state.h[k] < 0)
        throw Error("the depth array '" + optional.depth + "' is negative (" +
                    formatValue(state.h[k]) + " m) at cell (" +
                    cellIndex(image, static_cast<int>(k % nx), static_cast<int>(k / nx)) + ")");
  }
  else
  {
    std::vector<double> surface;
    if (!optional.freeSurface.empty())
      surface = cellValues(image, optional.freeSurface, "free surface", 1, 1, 1, closed);
    else
    {
      requireFinite(initialWaterLevel, "initial water level");
      if (std::fabs(initialWaterLevel) > kMaxLevelSeries)
        throw Error("the initial water level must be in [" + formatValue(-kMaxLevelSeries) + ", " +
                    formatValue(kMaxLevelSeries) + "] m, got " + formatValue(initialWaterLevel) +
                    " m");
      surface.assign(state.cells(), initialWaterLevel);
    }
    for (std::size_t k = 0; k < state.cells(); ++k)
      state.h[k] = std::max(0.0, surface[k] - state.bed[k]);
  }
}
// The number of components of the image's array called name (cell data first), 0 where it has
// none (cellValues names it then).
int componentsOf(vtkImageData* image, const std::string& name)
{
  vtkAbstractArray* array = image->GetCellData()->GetAbstractArray(name.c_str());
  if (!array)
    array = image->GetPointData()->GetAbstractArray(name.c_str());
  return array ? array->GetNumberOfComponents() : 0;
}

// The initial velocity, (u, v) a cell: from the vector array, or from the x and y arrays (a
// model's velocity in two GeoTIFF bands); empty where none is given.
std::vector<double> velocityValues(vtkImageData* image,
  const ImageArrays& optional,
  const OutsideDomain& closed)
{
  const std::string &x = optional.velocityX, &y = optional.velocityY;
  if (x.empty() && y.empty())
    return optional.velocity.empty()
             ? std::vector<double>()
             : cellValues(image, optional.velocity, "velocity", 2, 3, 2, closed);
  if (x.empty() || y.empty())
    throw Error("the initial velocity from two arrays needs both: the " +
                std::string(x.empty() ? "y" : "x") + " array is '" + (x.empty() ? y : x) +
                "' and the " + (x.empty() ? "x" : "y") + " array is None: set " +
                (x.empty() ? "Velocity X Array too, or Velocity Y Array"
                           : "Velocity Y Array too, or Velocity X Array") +
                " to None (swe run: --velocity-array X,Y)");
  if (!optional.velocity.empty())
    throw Error("the initial velocity is given twice, by the velocity array '" + optional.velocity +
                "' and the arrays '" + x + "' (x) and '" + y +
                "' (y): set Velocity Array to None to use the two arrays, or Velocity X Array "
                "and Velocity Y Array to None to use '" +
                optional.velocity + "'");
  for (const auto& [name, property, axis] :
    { std::tuple{ &x, "Velocity X Array", "x" }, std::tuple{ &y, "Velocity Y Array", "y" } })
    if (const int components = componentsOf(image, *name); components > 1)
      throw Error("the " + std::string(property) + " '" + *name + "' has " +
                  std::to_string(components) + " components: it takes one, the velocity along " +
                  axis +
                  " [m/s]; give an array of 2 or 3 components as the Velocity Array instead "
                  "(swe run: --velocity-array NAME)");
  const std::vector<double> u = cellValues(image, x, "x velocity", 1, 1, 1, closed);
  const std::vector<double> v = cellValues(image, y, "y velocity", 1, 1, 1, closed);
  std::vector<double> uv(2 * u.size());
  for (std::size_t k = 0; k < u.size(); ++k)
  {
    uv[2 * k] = u[k];
    uv[2 * k + 1] = v[k];
  }
  return uv;
}

// The Manning coefficient per cell: the Manning array's, or the class array's classes looked up
// in the table; empty where neither is given (the uniform coefficient).
std::vector<double> manningValues(vtkImageData* image,
  const ImageArrays& optional,
  const OutsideDomain& closed)
{
  if (optional.manningClass.empty())
    return optional.manning.empty()
             ? std::vector<double>()
             : cellValues(image, optional.manning, "Manning coefficient", 1, 1, 1, closed);
  if (!optional.manning.empty())
    throw Error("the Manning coefficient is given twice, by the Manning array '" +
                optional.manning + "' and the Manning class array '" + optional.manningClass +
                "': set Manning Array to None to use the classes (swe run: --manning-array "
                "none), or Manning Class Array to None");
  const std::vector<double> classes =
    cellValues(image, optional.manningClass, "Manning class", 1, 1, 1, closed);
  const int nx = image->GetDimensions()[0] - 1;
  return manningFromClasses(classes,
    *closed.bed,
    optional.manningTable,
    optional.manningClass,
    [image, nx](std::size_t k) {
      return "cell (" + cellIndex(image, static_cast<int>(k % nx), static_cast<int>(k / nx)) + ")";
    });
}
} // namespace

InitialState imageInitialState(vtkImageData* image, const ImageArrays& arrays)
{
  if (!image)
    throw Error("the Shallow Water Solver needs an image (vtkImageData) input");
  int nx, ny;
  double dx, origin[3];
  requireMetreImage(image);
  imageGrid(image->GetExtent(), image->GetSpacing(), image->GetOrigin(), nx, ny, dx, origin);
  const std::string bed = arrays.bed.empty() ? automaticBedArray(image) : arrays.bed;
  // (an optional array naming the terrain's is none: vtkShallowWaterSolver::OptionalArray, for
  // the terrain found by name)
  ImageArrays optional = arrays;
  for (std::string* name : { &optional.depth,
         &optional.freeSurface,
         &optional.velocity,
         &optional.velocityX,
         &optional.velocityY,
         &optional.manning,
         &optional.manningClass,
         &optional.rain,
         &optional.conductivity,
         &optional.suction,
         &optional.deficit })
    if (*name == bed)
      name->clear();
  InitialState state(nx, ny);
  // The DEM's no-data cells hold no terrain: they become closed cells (NaN, InitialState),
  // outside the domain, where no other array is read.
  const double noData = noDataValue(image);
  state.bed = cellValues(image, bed, "terrain (Bed)", 1, 1, 1, { &noData, nullptr });
  const OutsideDomain closed{ nullptr, &state.bed };
  fillWater(image, optional, arrays.initialWaterLevel, closed, state);
  const std::vector<double> uv = velocityValues(image, optional, closed);
  for (std::size_t k = 0; k < uv.size() / 2; ++k)
  {
    state.hu[k] = state.h[k] * uv[2 * k];
    state.hv[k] = state.h[k] * uv[2 * k + 1];
  }
  state.manning = manningValues(image, optional, closed);
  if (!optional.rain.empty())
    state.rain = cellValues(image, optional.rain, "rainfall", 1, 1, 1, closed);
  for (const auto& [name, values, role] :
    { std::tuple{ &optional.conductivity, &state.conductivity, "hydraulic conductivity" },
      std::tuple{ &optional.suction, &state.suction, "suction head" },
      std::tuple{ &optional.deficit, &state.deficit, "moisture deficit" } })
    if (!name->empty())
      *values = cellValues(image, *name, role, 1, 1, 1, closed);
  // (closed cells hold no water, whatever the arrays say there)
  for (std::size_t k = 0; k < state.cells(); ++k)
    if (state.closed(k))
      state.h[k] = state.hu[k] = state.hv[k] = 0;
  return state;
}
std::vector<double> imageCellValues(vtkImageData* image,
  const std::string& name,
  const std::string& role,
  const InitialState& state)
{
  return cellValues(image, name, role, 1, 1, 1, { nullptr, &state.bed });
}
} // namespace swe
