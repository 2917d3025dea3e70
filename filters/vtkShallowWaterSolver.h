/**
 * @class vtkShallowWaterSolver
 * @brief The "Shallow Water Solver" filter: a simulation on the grid of its 2D vtkImageData input,
 * whose arrays give the terrain and, optionally, the initial water, velocity and roughness.
 *
 * One simulation cell per input cell (point data is averaged to cells); the output has the input's
 * origin and spacing (square cells). BedArray names the terrain (required); DepthArray or else
 * FreeSurfaceArray gives the initial water, and without either the water stands at
 * InitialWaterLevel (dry where the terrain is higher); VelocityArray (2 or 3 components, or
 * VelocityXArray and VelocityYArray of one each) and ManningArray (per-cell roughness, overriding
 * ManningCoefficient, or ManningClassArray's land-use classes through the Manning Table) are
 * optional, and so is RainfallArray (the rain's factor per cell, times
 * Rainfall or its series). An empty name or "None" means "not given". A new input restarts the
 * simulation. Everything else is vtkShallowWaterBase.
 */
#ifndef vtkShallowWaterSolver_h
#define vtkShallowWaterSolver_h

#include "ShallowWaterFiltersModule.h" // for export macro
#include "vtkShallowWaterBase.h"

#include <array>   // for the Manning Table's rows
#include <cstddef> // for the input digest
#include <string>  // for the array names
#include <vector>  // for the Manning Table's rows

class SHALLOWWATERFILTERS_EXPORT vtkShallowWaterSolver : public vtkShallowWaterBase
{
public:
  static vtkShallowWaterSolver* New();
  vtkTypeMacro(vtkShallowWaterSolver, vtkShallowWaterBase);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  ///@{
  /// Input arrays; changing any restarts the simulation at t = 0.
  void SetBedArray(const char* name);
  const char* GetBedArray() { return this->BedArray.c_str(); }
  void SetDepthArray(const char* name);
  const char* GetDepthArray() { return this->DepthArray.c_str(); }
  void SetFreeSurfaceArray(const char* name);
  const char* GetFreeSurfaceArray() { return this->FreeSurfaceArray.c_str(); }
  void SetVelocityArray(const char* name);
  const char* GetVelocityArray() { return this->VelocityArray.c_str(); }
  /// The initial velocity from two one-component arrays (x, y), in place of VelocityArray.
  void SetVelocityXArray(const char* name);
  const char* GetVelocityXArray() { return this->VelocityXArray.c_str(); }
  void SetVelocityYArray(const char* name);
  const char* GetVelocityYArray() { return this->VelocityYArray.c_str(); }
  void SetManningArray(const char* name);
  const char* GetManningArray() { return this->ManningArray.c_str(); }
  /// A land-use class per cell (whole numbers), its n from the Manning Table, in place of
  /// ManningArray.
  void SetManningClassArray(const char* name);
  const char* GetManningClassArray() { return this->ManningClassArray.c_str(); }
  /// The Manning Table's rows (class, n [s/m^(1/3)]): the repeatable property's commands.
  void AddManningTableRow(double landUseClass, double n);
  void RemoveAllManningTableRows();
  /// The rain's factor per cell: Rainfall (or the Rainfall Series) times its value.
  void SetRainfallArray(const char* name);
  const char* GetRainfallArray() { return this->RainfallArray.c_str(); }
  /// Each cell's source zone, whose discharge the Series table's Discharge N column gives.
  void SetSourceArray(const char* name);
  const char* GetSourceArray() { return this->SourceArray.c_str(); }
  /// Green-Ampt's soil per cell (a soil map), in place of the uniform values where given.
  void SetHydraulicConductivityArray(const char* name);
  const char* GetHydraulicConductivityArray() { return this->HydraulicConductivityArray.c_str(); }
  void SetSuctionHeadArray(const char* name);
  const char* GetSuctionHeadArray() { return this->SuctionHeadArray.c_str(); }
  void SetMoistureDeficitArray(const char* name);
  const char* GetMoistureDeficitArray() { return this->MoistureDeficitArray.c_str(); }
  /// Water-surface elevation [m] where neither DepthArray nor FreeSurfaceArray is given.
  void SetInitialWaterLevel(double level);
  vtkGetMacro(InitialWaterLevel, double);
  ///@}

protected:
  vtkShallowWaterSolver();
  ~vtkShallowWaterSolver() override = default;

  int FillInputPortInformation(int port, vtkInformation* info) override;
  void DescribeGrid(vtkInformationVector** inputVector,
    bool inputDataReady,
    int resolution[2],
    double& cellSize,
    double origin[3]) override;
  swe::InitialState MakeInitialState(swe::SimulationParameters& params,
    const swe::Block* block,
    vtkInformationVector** inputVector) override;
  bool InitialStateChanged(vtkInformationVector** inputVector) override;
  bool KeepsInfiltration() const override;
  vtkImageData* RestartFrame(vtkInformationVector** inputVector) override;
  int RequestUpdateExtent(vtkInformation* request,
    vtkInformationVector** inputVector,
    vtkInformationVector* outputVector) override;
  void AddInputParameters(swe::SimulationParameters& params,
    vtkInformationVector** inputVector,
    bool inputDataReady,
    const double origin[3]) override;

private:
  vtkShallowWaterSolver(const vtkShallowWaterSolver&) = delete;
  void operator=(const vtkShallowWaterSolver&) = delete;

  // Stores name ("None" counts as empty) and restarts if it changed.
  void SetArrayName(std::string& member, const char* name);
  // An optional array's name, or none where it names the terrain's array: ParaView's array
  // lists fall back to their first array, the terrain, where the default name is missing (a
  // point terrain), and no depth, roughness or rain is the terrain's elevation.
  std::string OptionalArray(const std::string& name) const;
  // The point sources of the Source Array's zones, each taking its Discharge N series, into
  // params (the whole grid's state, one process); throws swe::Error where only one is given.
  void AddZoneSources(vtkImageData* input,
    const swe::InitialState& state,
    swe::SimulationParameters& params) const;
  // Whether a soil array (conductivity, suction head or moisture deficit) is chosen: Green-Ampt
  // then takes its soil per cell.
  bool HasSoilArray() const;

  std::string BedArray;
  std::string DepthArray;
  std::string FreeSurfaceArray;
  std::string VelocityArray;
  std::string VelocityXArray, VelocityYArray;
  std::string ManningArray;
  std::string ManningClassArray;
  std::string SourceArray;
  std::vector<std::array<double, 2>> ManningTableRows;
  std::string RainfallArray;
  std::string HydraulicConductivityArray, SuctionHeadArray, MoistureDeficitArray;
  double InitialWaterLevel;
  vtkMTimeType InputTime;
  std::size_t InputDigest = 0; // (InitialStateChanged)
  // The restart frame the last run was made with (identity only, never dereferenced).
  vtkImageData* RestartFrameSeen = nullptr;
  // The input data last warned about for pipeline information that disagrees with its grid.
  vtkMTimeType GridWarningTime = 0;
};

#endif
