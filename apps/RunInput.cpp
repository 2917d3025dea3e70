#include "RunInput.h"

#include "Error.h"

#include <cstdlib>
#include <fstream>
#include <sstream>
#ifdef SWE_WITH_VTK
#include "FrameArraySelection.h"
#include "FrameSnapshot.h"
#include "ImageInitialState.h"
#include "ManningTableCsv.h"
#include "SeriesCsv.h"
#include "SourceZones.h"
#include "RasterCheck.h"

#include <vtkCommand.h>
#include <vtkErrorCode.h>
#include <vtkExecutive.h>
#include <vtkImageData.h>
#include <vtkCellData.h>
#include <vtkPointData.h>
#include <vtkDataArray.h>
#include <vtkFieldData.h>
#include <vtkNew.h>
#include <vtkObjectFactory.h>
#include <vtkSmartPointer.h>
#include <vtkGDALRasterReader.h>
#include <vtkStringArray.h>
#include <vtkXMLImageDataReader.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>
#endif

namespace swe::cli
{
#ifdef SWE_WITH_VTK
namespace
{
// Keeps the messages of VTK's error events (which VTK would otherwise print with a time stamp and
// the object's address), without the "vtkClass (0x...): " prefix.
class VtkErrorCollector : public vtkCommand
{
public:
  static VtkErrorCollector* New() { return new VtkErrorCollector; }
  void Execute(vtkObject*, unsigned long, void* callData) override
  {
    std::string message = callData ? static_cast<const char*>(callData) : "unknown error";
    const std::size_t prefix = message.find("): ");
    if (prefix != std::string::npos)
      message.erase(0, prefix + 3);
    while (!message.empty() && std::isspace(static_cast<unsigned char>(message.back())))
      message.pop_back();
    Messages.push_back(message);
  }
  std::vector<std::string> Messages;
};

// Runs reader on file; the image it gives, or an error naming the file and what is wrong with it.
// A truncated or damaged file leaves an empty image, which would be blamed for its shape: the
// reader's and the pipeline's errors are collected instead of printed, and the first names the
// cause.
template<class Reader>
vtkSmartPointer<vtkImageData> readWith(Reader* reader, const std::string& file)
{
  vtkNew<VtkErrorCollector> errors;
  reader->AddObserver(vtkCommand::ErrorEvent, errors);
  if constexpr (std::is_base_of_v<vtkXMLImageDataReader, Reader>)
    reader->SetParserErrorObserver(errors);
  reader->GetExecutive()->AddObserver(vtkCommand::ErrorEvent, errors);
  reader->SetFileName(file.c_str());
  reader->Update();
  if (!errors->Messages.empty() || reader->GetErrorCode() != vtkErrorCode::NoError)
    throw Error("cannot read '" + file + "': " +
                (errors->Messages.empty()
                    ? std::string(vtkErrorCode::GetStringFromErrorCode(reader->GetErrorCode()))
                    : errors->Messages.front()) +
                " (the file may be truncated or damaged)");
  return vtkImageData::SafeDownCast(reader->GetOutput());
}

// vtkXMLImageDataReader fills the whole extent a .vti declares from the file's pieces, and leaves
// the cells that no piece covers as the memory held them: this one counts the cells covered.
class VtiReader : public vtkXMLImageDataReader
{
public:
  static VtiReader* New();
  vtkTypeMacro(VtiReader, vtkXMLImageDataReader);

  // The cells of `extent` that the file's pieces hold values for (pieces do not overlap).
  vtkIdType coveredCells(const int extent[6]) const
  {
    vtkIdType covered = 0;
    for (int p = 0; p < this->NumberOfPieces; ++p)
    {
      const int* piece = this->PieceExtents + 6 * p;
      vtkIdType cells = 1;
      for (int axis = 0; axis < 3; ++axis)
      {
        const int low = std::max(piece[2 * axis], extent[2 * axis]);
        const int high = std::min(piece[2 * axis + 1], extent[2 * axis + 1]);
        // (an axis of one point, z in 2D, is one layer of cells)
        const bool flat = extent[2 * axis] == extent[2 * axis + 1];
        cells *= flat ? (low <= high ? 1 : 0) : std::max(high - low, 0);
      }
      covered += cells;
    }
    return covered;
  }
};
vtkStandardNewMacro(VtiReader);

// A .vti's image, refused where its pieces leave cells of its extent without values.
vtkSmartPointer<vtkImageData> readVti(VtiReader* reader, const std::string& file)
{
  vtkSmartPointer<vtkImageData> image = readWith(reader, file);
  if (!image)
    return image;
  const vtkIdType covered = reader->coveredCells(image->GetExtent());
  const int* e = image->GetExtent();
  if (covered < image->GetNumberOfCells())
    throw Error("'" + file + "' holds values for " + std::to_string(covered) + " of the " +
                std::to_string(image->GetNumberOfCells()) + " cells of its extent (" +
                std::to_string(e[0]) + " " + std::to_string(e[1]) + " " + std::to_string(e[2]) +
                " " + std::to_string(e[3]) + " " + std::to_string(e[4]) + " " +
                std::to_string(e[5]) +
                "): its pieces do not cover it, and the rest would be read as whatever the "
                "memory held. The file is damaged or its WholeExtent wrong");
  return image;
}

// The image of a .vti file, or of a raster GDAL reads (a GeoTIFF DEM, an ESRI ASCII grid...: its
// Band 1 cell array, MAP_PROJECTION and NO_DATA_VALUE field data).
vtkSmartPointer<vtkImageData> readImage(const std::string& file)
{
  vtkNew<VtiReader> xml;
  if (xml->CanReadFile(file.c_str()))
    return readVti(xml.Get(), file);
  if (!std::ifstream(file))
    throw Error("cannot open '" + file + "'");
  // (VTK's reader aborts the process on a file it cannot read whole, and reads cells in feet, of
  // an unknown size or mirrored without a word: GDAL reads and checks it first)
  checkRasterFile(file);
  vtkNew<vtkGDALRasterReader> raster;
  raster->SetCollateBands(false); // (Debian's ParaView 5.11 crashes collating them; Band 1)
  vtkSmartPointer<vtkImageData> image = readWith(raster.Get(), file);
  if (!image || image->GetNumberOfCells() == 0)
    throw Error("cannot read '" + file +
                "' as a VTK XML image (.vti) or a raster GDAL reads "
                "(GeoTIFF, ASCII grid)");
  // (the reader lays a rotated raster out north-up, its cells' spacing along the rotated axes:
  // the water would run on other cells than the DEM's; corners upper left, lower left, lower
  // right, upper right)
  if (const double* c = raster->GetGeoCornerPoints())
  {
    const double tolerance = 1e-9 * (std::fabs(c[4] - c[2]) + std::fabs(c[1] - c[3]));
    if (std::fabs(c[0] - c[2]) > tolerance || std::fabs(c[3] - c[5]) > tolerance)
      throw Error("'" + file +
                  "' is a rotated raster (its geotransform turns its rows), which the solver "
                  "would read as a north-up grid: warp it north-up first (gdalwarp " +
                  file + " north_up.tif)");
  }
  return image;
}

// An optional array as the Shallow Water Solver's property takes it: the one named, none for
// "none", else by default the array called `name` where the image has one, so that --input
// floods a terrain as the filter does (its XML's default_values).
std::string solverArray(vtkImageData* image, const std::string& given, const char* name)
{
  if (lowercase(given) == "none")
    return "";
  if (!given.empty() || name == nullptr)
    return given;
  const bool found = image->GetCellData()->GetAbstractArray(name) != nullptr ||
                     image->GetPointData()->GetAbstractArray(name) != nullptr;
  return found ? name : "";
}

// --velocity-array's names: one array of 2 or 3 components, or two of one (x,y), trimmed.
std::vector<std::string> velocityNames(const std::string& given)
{
  std::vector<std::string> names;
  for (std::size_t begin = 0, end = 0; end != std::string::npos; begin = end + 1)
  {
    end = given.find(',', begin);
    std::string name = given.substr(begin, end == std::string::npos ? end : end - begin);
    name.erase(0, name.find_first_not_of(" \t"));
    name.erase(name.find_last_not_of(" \t") + 1);
    names.push_back(name);
  }
  const bool blank = std::find(names.begin(), names.end(), "") != names.end();
  if (names.size() > 2 || (names.size() == 2 && blank))
    throw Error("--velocity-array '" + given +
                "' should name one array of 2 or 3 components (x and y), or two arrays of one, "
                "x then y, comma-separated: e.g. --velocity-array \"Band 3,Band 4\"");
  return names;
}

InitialState imageState(InputOptions& input, SimulationParameters& params)
{
  const vtkSmartPointer<vtkImageData> image = readImage(input.file);
  ImageArrays arrays;
  arrays.bed = input.bed;
  // (The water's defaults only where neither is named, and one of them: a named surface is not
  // to lose to a depth taken by default, nor the two defaults to meet.)
  const auto named = [](const std::string& a) { return !a.empty() && lowercase(a) != "none"; };
  const bool waterNamed = named(input.depth) || named(input.surface);
  arrays.depth = solverArray(image, input.depth, waterNamed ? nullptr : "Band 2");
  arrays.freeSurface = solverArray(
    image, input.surface, waterNamed || !arrays.depth.empty() ? nullptr : "FreeSurface");
  const std::vector<std::string> velocity = velocityNames(input.velocity);
  if (velocity.size() == 2)
  {
    arrays.velocityX = solverArray(image, velocity[0], nullptr);
    arrays.velocityY = solverArray(image, velocity[1], nullptr);
  }
  else
    arrays.velocity = solverArray(image, input.velocity, "Velocity");
  // (a class array named: the Manning array is the one named alone, not the one by default)
  arrays.manningClass = solverArray(image, input.manningClass, nullptr);
  arrays.manning =
    solverArray(image, input.manning, arrays.manningClass.empty() ? "Manning" : nullptr);
  if (!arrays.manningClass.empty())
    arrays.manningTable = readManningTable(input.manningTable);
  // (no default for these: "none" is none, as for the others)
  arrays.rain = solverArray(image, input.rain, nullptr);
  params.rainPerCell = !arrays.rain.empty();
  arrays.conductivity = solverArray(image, input.conductivity, nullptr);
  arrays.suction = solverArray(image, input.suction, nullptr);
  arrays.deficit = solverArray(image, input.deficit, nullptr);
  params.infiltration.perCell =
    !arrays.conductivity.empty() || !arrays.suction.empty() || !arrays.deficit.empty();
  arrays.initialWaterLevel = input.waterLevel;
  InitialState state = imageInitialState(image.Get(), arrays);
  if (auto* crs =
        vtkStringArray::SafeDownCast(image->GetFieldData()->GetAbstractArray("MAP_PROJECTION")))
    if (crs->GetNumberOfValues() > 0)
      input.crs = crs->GetValue(0);
  imageGrid(image->GetExtent(),
    image->GetSpacing(),
    image->GetOrigin(),
    params.nx,
    params.ny,
    params.dx,
    input.origin.data());
  if (!input.sourceArray.empty())
  {
    params.sourceZones = readSeriesColumns(input.sourceZones);
    addZoneSources(imageCellValues(image, input.sourceArray, "source zone", state), state, params);
  }
  params.validate();
  return state;
}
} // namespace
#endif

Snapshot restartSnapshot(const std::string& file, const Simulation& run, std::string& warning)
{
#ifdef SWE_WITH_VTK
  return frameSnapshot(readImage(file).Get(), run, "'" + file + "'", warning);
#else
  (void)run;
  (void)warning;
  throw Error(
    "--restart needs VTK, and this swe was built without ParaView/VTK (restarting " + file + ")");
#endif
}

InitialState initialState(const CommonOptions& options,
  InputOptions& input,
  SimulationParameters& params)
{
  for (const std::string* array : { &input.bed,
         &input.depth,
         &input.surface,
         &input.velocity,
         &input.manning,
         &input.manningClass,
         &input.sourceArray,
         &input.rain,
         &input.conductivity,
         &input.suction,
         &input.deficit })
    if (input.file.empty() && !array->empty())
      throw Error("'" + *array + "' names an array of --input: give the file");
  const bool classes = !input.manningClass.empty() && lowercase(input.manningClass) != "none";
  if (classes && input.manningTable.empty())
    throw Error("--manning-class-array " + input.manningClass +
                " takes each class's n from --manning-table: give a CSV file with the columns "
                "class,n");
  if (!classes && !input.manningTable.empty())
    throw Error("--manning-table " + input.manningTable +
                " maps the classes of --manning-class-array to n: give the class array");
  if (!input.sourceArray.empty() && input.sourceZones.empty())
    throw Error("--source-array " + input.sourceArray +
                " gives each cell's source zone: give the zones' discharges with --source-zones "
                "(a CSV of a time column and a discharge column [m^3/s] a zone)");
  if (input.sourceArray.empty() && !input.sourceZones.empty())
    throw Error("--source-zones " + input.sourceZones +
                " spreads each zone's discharge over its cells: name the array of --input that "
                "gives each cell's zone with --source-array");
  if (input.file.empty() && input.waterLevel != 0)
    throw Error("--water-level " + formatValue(input.waterLevel) +
                " sets the surface over an --input's terrain: give the file (a scenario makes " +
                "its own water)");
  if (input.file.empty())
    return makeScenario(scenarioFromName(options.scenario), params);
#ifdef SWE_WITH_VTK
  return imageState(input, params);
#else
  throw Error("--input needs VTK, and this swe was built without ParaView/VTK");
#endif
}
} // namespace swe::cli
