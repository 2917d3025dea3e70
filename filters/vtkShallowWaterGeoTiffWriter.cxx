#include "vtkShallowWaterGeoTiffWriter.h"

#include "Error.h"
#include "GeoTiff.h"

#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkDataSetAttributes.h>
#include <vtkFieldData.h>
#include <vtkImageData.h>
#include <vtkInformation.h>
#include <vtkObjectFactory.h>
#include <vtkStringArray.h>
#include <vtkUnsignedCharArray.h>

#include <cmath>
#include <limits>

vtkStandardNewMacro(vtkShallowWaterGeoTiffWriter);

vtkShallowWaterGeoTiffWriter::vtkShallowWaterGeoTiffWriter() = default;

vtkShallowWaterGeoTiffWriter::~vtkShallowWaterGeoTiffWriter()
{
  this->SetFileName(nullptr);
  this->SetCoordinateReferenceSystem(nullptr);
}

void vtkShallowWaterGeoTiffWriter::AddArray(const char* name)
{
  this->Arrays.emplace_back(name ? name : "");
  this->Modified();
}

void vtkShallowWaterGeoTiffWriter::ClearArrays()
{
  this->Arrays.clear();
  this->Modified();
}

int vtkShallowWaterGeoTiffWriter::FillInputPortInformation(int, vtkInformation* info)
{
  info->Set(vtkAlgorithm::INPUT_REQUIRED_DATA_TYPE(), "vtkImageData");
  return 1;
}

namespace
{
// The raster an image's cells make, and its CRS: the one given, else the image's MAP_PROJECTION.
swe::GeoRaster rasterOf(vtkImageData* image, const char* crs)
{
  int extent[6];
  double spacing[3], origin[3];
  image->GetExtent(extent);
  image->GetSpacing(spacing);
  image->GetOrigin(origin);
  swe::GeoRaster raster;
  raster.nx = extent[1] - extent[0];
  raster.ny = extent[3] - extent[2];
  if (raster.nx < 1 || raster.ny < 1 || extent[5] != extent[4])
    throw swe::Error("a GeoTIFF takes a 2D grid of cells; this image's extent is " +
                     std::to_string(extent[1] - extent[0]) + " x " +
                     std::to_string(extent[3] - extent[2]) + " x " +
                     std::to_string(extent[5] - extent[4]) + " cells");
  if (std::fabs(spacing[0] - spacing[1]) > 1e-9 * std::fabs(spacing[0]))
    throw swe::Error("a GeoTIFF here takes square cells; these are " + std::to_string(spacing[0]) +
                     " x " + std::to_string(spacing[1]));
  raster.dx = spacing[0];
  raster.origin = { origin[0] + extent[0] * spacing[0], origin[1] + extent[2] * spacing[1] };
  if (crs && *crs)
    raster.crs = crs;
  else if (auto* projection = vtkStringArray::SafeDownCast(
             image->GetFieldData()->GetAbstractArray("MAP_PROJECTION")))
    if (projection->GetNumberOfValues() > 0)
      raster.crs = projection->GetValue(0);
  return raster;
}

swe::GeoBand bandOf(vtkDataArray* array)
{
  swe::GeoBand band;
  band.name = array->GetName();
  band.values.resize(static_cast<std::size_t>(array->GetNumberOfTuples()));
  for (vtkIdType k = 0; k < array->GetNumberOfTuples(); ++k)
    band.values[static_cast<std::size_t>(k)] = array->GetComponent(k, 0);
  return band;
}
} // namespace

void vtkShallowWaterGeoTiffWriter::WriteData()
{
  vtkImageData* image = vtkImageData::SafeDownCast(this->GetInput());
  try
  {
    if (!this->FileName || !*this->FileName)
      throw swe::Error("give the GeoTIFF a file name");
    if (!image)
      throw swe::Error("the GeoTIFF writer takes image data");
    const swe::GeoRaster raster = rasterOf(image, this->CoordinateReferenceSystem);
    vtkCellData* cells = image->GetCellData();
    std::vector<swe::GeoBand> bands;
    bool doublePrecision = false;
    const auto add = [&](vtkDataArray* array)
    {
      bands.push_back(bandOf(array));
      doublePrecision = doublePrecision || array->GetDataType() == VTK_DOUBLE;
    };
    for (const std::string& name : this->Arrays)
    {
      vtkDataArray* array = cells->GetArray(name.c_str());
      if (!array || array->GetNumberOfComponents() != 1)
        throw swe::Error("the image has no scalar cell array '" + name + "' to write");
      add(array);
    }
    if (this->Arrays.empty())
      for (int k = 0; k < cells->GetNumberOfArrays(); ++k)
      {
        vtkDataArray* array = cells->GetArray(k);
        if (array && array->GetName() && array->GetNumberOfComponents() == 1 &&
            std::string(array->GetName()) != "vtkGhostType")
          add(array);
      }
    // Hidden cells (closed: no data in the DEM) are no data in the file too.
    if (vtkUnsignedCharArray* ghosts = image->GetCellGhostArray())
      for (swe::GeoBand& band : bands)
        for (std::size_t k = 0; k < band.values.size(); ++k)
          if (ghosts->GetValue(static_cast<vtkIdType>(k)) & vtkDataSetAttributes::HIDDENCELL)
            band.values[k] = std::numeric_limits<double>::quiet_NaN();
    swe::writeGeoTiff(this->FileName, raster, bands, doublePrecision);
  }
  catch (const swe::Error& e)
  {
    vtkErrorMacro(<< e.what());
    this->SetErrorCode(1);
  }
}

void vtkShallowWaterGeoTiffWriter::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "FileName: " << (this->FileName ? this->FileName : "(none)") << "\n";
  os << indent << "CoordinateReferenceSystem: "
     << (this->CoordinateReferenceSystem ? this->CoordinateReferenceSystem : "(none)") << "\n";
  os << indent << "Arrays: " << this->Arrays.size() << "\n";
}
