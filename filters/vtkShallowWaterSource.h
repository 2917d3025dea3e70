/**
 * @class vtkShallowWaterSource
 * @brief A 2D shallow-water (flood) simulation on OpenCL, as a time-dependent image source.
 *
 * Produces vtkImageData with one cell per simulation cell (spacing CellSize, origin 0, z = 0) and
 * the cell arrays Depth, FreeSurface, Bed, Velocity and Momentum; field data SimulationTime,
 * Steps, Mass and Device. The output times 0, OutputInterval, ... <= EndTime are reported as
 * TIME_STEPS, so ParaView's animation drives the simulation. A request for a later time advances
 * the live simulation; an earlier time restarts from the nearest in-memory checkpoint (at most 16,
 * and at most 1 GiB of host memory). Changing a property that changes the physics restarts from
 * t = 0; changing EndTime or OutputInterval keeps the state.
 *
 * This class is a thin adapter: all numerics live in the engine (solver/).
 */
#ifndef vtkShallowWaterSource_h
#define vtkShallowWaterSource_h

#include "ShallowWaterFiltersModule.h" // for export macro
#include "vtkImageAlgorithm.h"

class vtkStringArray;
namespace swe
{
struct SimulationParameters;
}

class SHALLOWWATERFILTERS_EXPORT vtkShallowWaterSource : public vtkImageAlgorithm
{
public:
  static vtkShallowWaterSource* New();
  vtkTypeMacro(vtkShallowWaterSource, vtkImageAlgorithm);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  enum PrecisionType
  {
    SINGLE = 0,
    DOUBLE = 1
  };

  ///@{
  /// Grid and physics. Changing any of these restarts the simulation at t = 0.
  void SetResolution(int nx, int ny);
  void SetResolution(const int resolution[2]) { this->SetResolution(resolution[0], resolution[1]); }
  vtkGetVector2Macro(Resolution, int);
  void SetCellSize(double dx);
  vtkGetMacro(CellSize, double);
  void SetManningCoefficient(double n);
  vtkGetMacro(ManningCoefficient, double);
  void SetGravity(double g);
  vtkGetMacro(Gravity, double);
  void SetCourantNumber(double c);
  vtkGetMacro(CourantNumber, double);
  /// > 0: a fixed time step in seconds (as in the thesis); 0: CFL-adaptive (the default).
  void SetFixedTimeStep(double dt);
  vtkGetMacro(FixedTimeStep, double);
  /// Index into the engine's scenarios (swe::Scenario): 0 dam break, 1 radial dam break, 2 lake
  /// at rest, 3 immersed bump, 4 emerged bump, 5 Ritter (dry bed), 6 Stoker (wet bed).
  void SetScenario(int scenario);
  vtkGetMacro(Scenario, int);
  /// 0: Lax-Friedrichs (the thesis's scheme); 1: MUSCL-HLLC (second order, bed, wet/dry).
  void SetScheme(int scheme);
  vtkGetMacro(Scheme, int);
  ///@}

  ///@{
  /// Boundary of each side: 0 wall, 1 open, 2 inflow (value: discharge per unit width into the
  /// domain, m^2/s), 3 fixed water level (value: surface elevation, m).
  void SetBoundaryWest(int type);
  vtkGetMacro(BoundaryWest, int);
  void SetBoundaryEast(int type);
  vtkGetMacro(BoundaryEast, int);
  void SetBoundarySouth(int type);
  vtkGetMacro(BoundarySouth, int);
  void SetBoundaryNorth(int type);
  vtkGetMacro(BoundaryNorth, int);
  void SetBoundaryWestValue(double value);
  vtkGetMacro(BoundaryWestValue, double);
  void SetBoundaryEastValue(double value);
  vtkGetMacro(BoundaryEastValue, double);
  void SetBoundarySouthValue(double value);
  vtkGetMacro(BoundarySouthValue, double);
  void SetBoundaryNorthValue(double value);
  vtkGetMacro(BoundaryNorthValue, double);
  ///@}

  ///@{
  /// OpenCL device: "auto", or an entry of GetAvailableDevices(). Precision: SINGLE or DOUBLE.
  void SetDevice(const char* device);
  vtkGetStringMacro(Device);
  void SetPrecision(int precision);
  vtkGetMacro(Precision, int);
  ///@}

  ///@{
  /// Output times 0, OutputInterval, 2 OutputInterval, ... <= EndTime. Changing them keeps the
  /// simulation's state.
  void SetEndTime(double t);
  vtkGetMacro(EndTime, double);
  void SetOutputInterval(double interval);
  vtkGetMacro(OutputInterval, double);
  ///@}

  /// Discards the simulation; the next update starts again from t = 0.
  void Reset();

  /// "auto" followed by one label per OpenCL device found ("0: name (CPU)").
  vtkStringArray* GetAvailableDevices();

protected:
  vtkShallowWaterSource();
  ~vtkShallowWaterSource() override;

  int RequestInformation(vtkInformation* request,
    vtkInformationVector** inputVector,
    vtkInformationVector* outputVector) override;
  int RequestData(vtkInformation* request,
    vtkInformationVector** inputVector,
    vtkInformationVector* outputVector) override;

private:
  vtkShallowWaterSource(const vtkShallowWaterSource&) = delete;
  void operator=(const vtkShallowWaterSource&) = delete;

  // The engine's parameters from the properties; throws swe::Error naming a bad value, or a grid
  // the device cannot hold.
  swe::SimulationParameters CheckedParameters() const;

  // Drops the simulation (after a change of physics) and marks the source modified.
  void PhysicsChanged();

  int Resolution[2];
  double CellSize;
  double ManningCoefficient;
  double Gravity;
  double CourantNumber;
  double FixedTimeStep;
  int Scenario;
  int Scheme;
  int BoundaryWest, BoundaryEast, BoundarySouth, BoundaryNorth;
  double BoundaryWestValue, BoundaryEastValue, BoundarySouthValue, BoundaryNorthValue;
  char* Device;
  int Precision;
  double EndTime;
  double OutputInterval;

  class vtkInternals;
  vtkInternals* Internals;
};

#endif
