/**
 * @class vtkShallowWaterGeoTiffWriter
 * @brief Writes an image's cell arrays as a GeoTIFF through GDAL, for GIS.
 *
 * One band per scalar cell array (or those named with AddArray), each named after its array,
 * north up, NaN as no data. The grid's origin and cell size place it; the coordinate reference
 * system is CoordinateReferenceSystem if set, else the MAP_PROJECTION field data that ParaView's
 * GDAL reader gives a DEM (and the Shallow Water filters pass on), else none. Hidden cells (a
 * DEM's no data) are no data. Cells must be square.
 */
#ifndef vtkShallowWaterGeoTiffWriter_h
#define vtkShallowWaterGeoTiffWriter_h

#include "ShallowWaterFiltersModule.h" // for export macro
#include "vtkWriter.h"

#include <string>
#include <vector>

class vtkImageData;

class SHALLOWWATERFILTERS_EXPORT vtkShallowWaterGeoTiffWriter : public vtkWriter
{
public:
  static vtkShallowWaterGeoTiffWriter* New();
  vtkTypeMacro(vtkShallowWaterGeoTiffWriter, vtkWriter);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  vtkSetStringMacro(FileName);
  vtkGetStringMacro(FileName);
  /// An EPSG code ("EPSG:32633"), a PROJ string or WKT; empty: the input's MAP_PROJECTION.
  vtkSetStringMacro(CoordinateReferenceSystem);
  vtkGetStringMacro(CoordinateReferenceSystem);
  /// The cell arrays to write, in order; none added: every scalar cell array.
  void AddArray(const char* name);
  void ClearArrays();

protected:
  vtkShallowWaterGeoTiffWriter();
  ~vtkShallowWaterGeoTiffWriter() override;
  int FillInputPortInformation(int port, vtkInformation* info) override;
  void WriteData() override;

private:
  vtkShallowWaterGeoTiffWriter(const vtkShallowWaterGeoTiffWriter&) = delete;
  void operator=(const vtkShallowWaterGeoTiffWriter&) = delete;

  char* FileName = nullptr;
  char* CoordinateReferenceSystem = nullptr;
  std::vector<std::string> Arrays;
};

#endif
