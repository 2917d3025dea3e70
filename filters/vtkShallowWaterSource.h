/**
 * @class vtkShallowWaterSource
 * @brief The "Shallow Water" source: a simulation of one of the engine's scenarios on a grid
 * given by Resolution and CellSize (origin 0, z = 0). Everything else is vtkShallowWaterBase.
 */
#ifndef vtkShallowWaterSource_h
#define vtkShallowWaterSource_h

#include "ShallowWaterFiltersModule.h" // for export macro
#include "vtkShallowWaterBase.h"

class SHALLOWWATERFILTERS_EXPORT vtkShallowWaterSource : public vtkShallowWaterBase
{
public:
  static vtkShallowWaterSource* New();
  vtkTypeMacro(vtkShallowWaterSource, vtkShallowWaterBase);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  ///@{
  /// Grid and initial state. Changing any of these restarts the simulation at t = 0.
  void SetResolution(int nx, int ny);
  void SetResolution(const int resolution[2]) { this->SetResolution(resolution[0], resolution[1]); }
  vtkGetVector2Macro(Resolution, int);
  void SetCellSize(double dx);
  vtkGetMacro(CellSize, double);
  /// Index into the engine's scenarios (swe::Scenario): 0 dam break, 1 radial dam break, 2 lake
  /// at rest, 3 immersed bump, 4 emerged bump, 5 Ritter (dry bed), 6 Stoker (wet bed).
  void SetScenario(int scenario);
  vtkGetMacro(Scenario, int);
  ///@}

protected:
  vtkShallowWaterSource();
  ~vtkShallowWaterSource() override = default;

  void DescribeGrid(vtkInformationVector** inputVector,
    bool inputDataReady,
    int resolution[2],
    double& cellSize,
    double origin[3]) override;
  swe::InitialState MakeInitialState(swe::SimulationParameters& params,
    const swe::Block* block,
    vtkInformationVector** inputVector) override;

private:
  vtkShallowWaterSource(const vtkShallowWaterSource&) = delete;
  void operator=(const vtkShallowWaterSource&) = delete;

  int Resolution[2];
  double CellSize;
  int Scenario;
};

#endif
