/**
 * @class vtkShallowWaterBase
 * @brief What the Shallow Water source and solver share: physics, time and device properties,
 * and the time-driven simulation behind the output.
 *
 * Produces vtkImageData with one cell per simulation cell and the cell arrays Depth, FreeSurface,
 * Bed, Velocity and Momentum, and the flood maps and infiltration where the run has them (those
 * selected); field data SimulationTime, Steps, Mass and Device; and, on a second output, the
 * gauges' samples as a vtkTable (GaugeTable.h).
 * The output times 0, OutputInterval, ... <= EndTime are reported as TIME_STEPS, so ParaView's
 * animation drives the simulation. A request for a later time advances the live simulation; an
 * earlier time restarts from the nearest in-memory checkpoint (at most 16, and at most 1 GiB of
 * host memory). Changing a property that changes the physics restarts from t = 0; changing EndTime
 * or OutputInterval keeps the state. Subclasses say where the grid and the initial state come from.
 *
 * A thin adapter: all numerics live in the engine (solver/).
 */
#ifndef vtkShallowWaterBase_h
#define vtkShallowWaterBase_h

#include "ShallowWaterFiltersModule.h" // for export macro
#include "vtkImageAlgorithm.h"

class vtkDataArraySelection;
class vtkStringArray;
namespace swe
{
struct Block;
struct DeviceInfo;
struct FrameRequest;
struct InitialState;
struct PropertyValues;
struct SimulationParameters;
}

class SHALLOWWATERFILTERS_EXPORT vtkShallowWaterBase : public vtkImageAlgorithm
{
public:
  vtkTypeMacro(vtkShallowWaterBase, vtkImageAlgorithm);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  enum PrecisionType
  {
    SINGLE = 0,
    DOUBLE = 1
  };

  ///@{
  /// Physics. Changing any of these restarts the simulation at t = 0. The scalar ones
  /// (ManningCoefficient, Rainfall, ..., FixedTimeStep) are swe::scalarParameters()' (their
  /// units, defaults and ranges): each has a setter and getter here only because ParaView's XML
  /// calls a property's own method.
  void SetManningCoefficient(double n);
  double GetManningCoefficient();
  /// Rain on every cell, in mm/h, for the whole run.
  void SetRainfall(double rate);
  double GetRainfall();
  /// Water lost to the ground from every wet cell, in mm/h.
  void SetLossRate(double rate);
  double GetLossRate();
  /// Rain varying in time, in place of Rainfall: points (time in s, intensity in mm/h) at
  /// increasing times, linear between them, none before the first or after the last.
  void AddRainfallSeriesPoint(double time, double intensity);
  void RemoveAllRainfallSeriesPoints();
  /// Flood maps (MaxDepth, MaxSpeed, MaxHazard, ArrivalTime, Duration) kept at every step, and
  /// the depth at which a cell counts as flooded, in metres.
  /// Green-Ampt infiltration (in place of LossRate): the saturated hydraulic conductivity in
  /// mm/h (0: none), the suction head in mm and the moisture deficit.
  void SetHydraulicConductivity(double k);
  double GetHydraulicConductivity();
  void SetSuctionHead(double psi);
  double GetSuctionHead();
  void SetMoistureDeficit(double deficit);
  double GetMoistureDeficit();
  void SetFloodMaps(int on);
  vtkGetMacro(FloodMaps, int);
  /// The water balance (SimulationParameters::waterBalance): field data of every output.
  void SetWaterBalance(int on);
  vtkGetMacro(WaterBalance, int);
  /// Skip dry land (SimulationParameters::skipDry): the same results, sooner on dry land.
  void SetSkipDryLand(int on);
  vtkGetMacro(SkipDryLand, int);
  /// Steps between halo exchanges under MPI (SimulationParameters::exchangeInterval).
  void SetExchangeInterval(int steps);
  int GetExchangeInterval();
  /// The gauges' table keeps a sample at least this far after the last one kept [s]; 0: all.
  void SetGaugeInterval(double seconds);
  double GetGaugeInterval();
  void SetArrivalDepth(double depth);
  double GetArrivalDepth();
  void SetGravity(double g);
  double GetGravity();
  void SetCourantNumber(double c);
  double GetCourantNumber();
  /// > 0: a fixed time step in seconds (as in the thesis); 0: CFL-adaptive (the default).
  void SetFixedTimeStep(double dt);
  double GetFixedTimeStep();
  /// 0: Lax-Friedrichs (the thesis's scheme); 1: MUSCL-HLLC and 2: MUSCL-Hancock (second
  /// order, terrain, wet/dry).
  void SetScheme(int scheme);
  vtkGetMacro(Scheme, int);
  ///@}

  ///@{
  /// Boundary of each side: 0 wall, 1 open, 2 inflow (Discharge: per unit width into the
  /// domain, m^2/s), 3 fixed water level (Level: surface elevation, m). Each side keeps both
  /// values; the one its type uses is applied.
  void SetBoundaryWest(int type);
  vtkGetMacro(BoundaryWest, int);
  void SetBoundaryEast(int type);
  vtkGetMacro(BoundaryEast, int);
  void SetBoundarySouth(int type);
  vtkGetMacro(BoundarySouth, int);
  void SetBoundaryNorth(int type);
  vtkGetMacro(BoundaryNorth, int);
  void SetBoundaryWestDischarge(double q);
  vtkGetMacro(BoundaryWestDischarge, double);
  void SetBoundaryEastDischarge(double q);
  vtkGetMacro(BoundaryEastDischarge, double);
  void SetBoundarySouthDischarge(double q);
  vtkGetMacro(BoundarySouthDischarge, double);
  void SetBoundaryNorthDischarge(double q);
  vtkGetMacro(BoundaryNorthDischarge, double);
  void SetBoundaryWestLevel(double level);
  vtkGetMacro(BoundaryWestLevel, double);
  void SetBoundaryEastLevel(double level);
  vtkGetMacro(BoundaryEastLevel, double);
  void SetBoundarySouthLevel(double level);
  vtkGetMacro(BoundarySouthLevel, double);
  void SetBoundaryNorthLevel(double level);
  vtkGetMacro(BoundaryNorthLevel, double);
  /// A side's value varying in time, in place of its Discharge or Level: points (time in s,
  /// m^2/s for an Inflow side's hydrograph, m for a Water level side's tide).
  /// An Inflow or Water level side on a stretch only: (from, to) metres along it (from its
  /// south or west end); (0, 0): the whole side.
  void SetBoundaryWestStretch(double from, double to);
  vtkGetVector2Macro(BoundaryWestStretch, double);
  void SetBoundaryEastStretch(double from, double to);
  vtkGetVector2Macro(BoundaryEastStretch, double);
  void SetBoundarySouthStretch(double from, double to);
  vtkGetVector2Macro(BoundarySouthStretch, double);
  void SetBoundaryNorthStretch(double from, double to);
  vtkGetVector2Macro(BoundaryNorthStretch, double);
  void AddBoundaryWestSeriesPoint(double time, double value);
  void RemoveAllBoundaryWestSeriesPoints();
  void AddBoundaryEastSeriesPoint(double time, double value);
  void RemoveAllBoundaryEastSeriesPoints();
  void AddBoundarySouthSeriesPoint(double time, double value);
  void RemoveAllBoundarySouthSeriesPoints();
  void AddBoundaryNorthSeriesPoint(double time, double value);
  void RemoveAllBoundaryNorthSeriesPoints();
  /// Gauges at points (x, y) in the output's coordinates: their depth, surface and speed after
  /// every step, in the second output (a table up to the frame's time).
  void AddGaugePoint(double x, double y);
  void RemoveAllGaugePoints();
  /// Point sources: rows (x, y, time, discharge in m^3/s); consecutive rows at the same point are
  /// one source's series.
  void AddPointSourceRow(double x, double y, double time, double discharge);
  void RemoveAllPointSourceRows();
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

  /// Which of the cell arrays Depth, FreeSurface, Bed, Momentum and Velocity the outputs hold
  /// (all by default). Leaving some out saves their memory and the time to fill them; another
  /// choice keeps the simulation's state.
  vtkDataArraySelection* GetCellArraySelection();
  /// The arrays of GetCellArraySelection() that the current settings make (the flood maps with
  /// FloodMaps on, Infiltration with Green-Ampt, Inflow with WaterBalance), each ticked as there:
  /// what the Output Arrays list offers.
  vtkDataArraySelection* GetMadeCellArraySelection();

  /// Discards the simulation; the next update starts again from t = 0.
  void Reset();

  /// "auto" followed by one label per OpenCL device found ("0: name (CPU)").
  vtkStringArray* GetAvailableDevices();

  /// Why the last update gave no frame (aborted: where the run stopped; or its error), for the
  /// monitor; empty after a frame.
  const char* GetRunStatus();

protected:
  vtkShallowWaterBase();
  ~vtkShallowWaterBase() override;

  /// The grid: cells along x and y, square cell size, origin. Throws swe::Error naming a bad
  /// value. Called in RequestInformation (inputDataReady false: only the pipeline information is
  /// known) and in RequestData (true: the input's data objects are up to date, and where they
  /// disagree with the information they are the truth).
  virtual void DescribeGrid(vtkInformationVector** inputVector,
    bool inputDataReady,
    int resolution[2],
    double& cellSize,
    double origin[3]) = 0;
  /// The initial state for params (whose grid DescribeGrid gave): of the whole grid, or of
  /// block's cells where a run is split among ParaView's ranks; what the input adds to params
  /// (the point sources of discharge zones) goes into params. Throws swe::Error.
  virtual swe::InitialState MakeInitialState(swe::SimulationParameters& params,
    const swe::Block* block,
    vtkInformationVector** inputVector) = 0;
  /// True when the initial state must be rebuilt although no property changed (a new input).
  virtual bool InitialStateChanged(vtkInformationVector**) { return false; }
  /// The frame of an earlier run that a new run continues from (the solver's Restart
  /// Frame), or null: a run from t = 0.
  virtual vtkImageData* RestartFrame(vtkInformationVector**) { return nullptr; }
  /// What the inputs add to params beyond the properties (the solver's Rainfall Array, Series
  /// table and gauge points, these in the output's coordinates: origin); the data only where
  /// inputDataReady. Throws swe::Error.
  virtual void AddInputParameters(swe::SimulationParameters&,
    vtkInformationVector**,
    bool /*inputDataReady*/,
    const double /*origin*/[3])
  {
  }
  /// Whether the run takes in Green-Ampt infiltration (and makes the Infiltration array): a
  /// Hydraulic Conductivity above 0 (the solver: or a soil array).
  virtual bool KeepsInfiltration() const;
  /// Drops the simulation (after a change of physics) and marks the algorithm modified.
  void PhysicsChanged();
  // The series properties (0: Rainfall Series, 1 + side: a side's, 5: Gauges).
  void AddSeriesPoint(int which, double time, double value);
  void RemoveAllSeriesPoints(int which);

  int FillOutputPortInformation(int port, vtkInformation* info) override;
  int RequestInformation(vtkInformation* request,
    vtkInformationVector** inputVector,
    vtkInformationVector* outputVector) override;
  // (an aborted frame has the next update make a frame again: vtkShallowWaterBasePipeline.cxx)
  int ComputePipelineMTime(vtkInformation* request,
    vtkInformationVector** inInfoVec,
    vtkInformationVector* outInfoVec,
    int requestFromOutputPort,
    vtkMTimeType* mtime) override;
  int RequestData(vtkInformation* request,
    vtkInformationVector** inputVector,
    vtkInformationVector* outputVector) override;
  // (a table or the gauge markers asked for at the flood's time keep the flood as it is)
  vtkTypeBool ProcessRequest(vtkInformation* request,
    vtkInformationVector** inputVector,
    vtkInformationVector* outputVector) override;

private:
  vtkShallowWaterBase(const vtkShallowWaterBase&) = delete;
  void operator=(const vtkShallowWaterBase&) = delete;

  // The shared properties' values, unchecked.
  swe::PropertyValues SharedPropertyValues() const;
  // A scalar property by name (swe::ScalarParameter::property): kept, restarting on a change.
  void SetScalar(const char* property, double value);
  double GetScalar(const char* property) const;
  // The engine's parameters from the properties and the grid; throws swe::Error naming a bad
  // value, or a grid the device cannot hold. device, if given: the device they run on.
  swe::SimulationParameters CheckedParameters(vtkInformationVector** inputVector,
    bool inputDataReady,
    double origin[3],
    swe::DeviceInfo* device = nullptr);
  // What a data request asks for: the parameters checked as above, the arrays and the output
  // time (the latest at or before the requested time). Throws swe::Error.
  swe::FrameRequest CheckedRequest(vtkInformationVector** inputVector, vtkInformation* outInfo);
  // Warns once for each End Time and Output Interval where End Time falls between outputs: the
  // run stops at the last output before it (lastOutput), which nothing else would tell.
  void WarnOfEndTimeBetweenOutputs(double lastOutput);
  // Fills the tables and the gauge markers with the run's records up to rowsUpTo, the markers at
  // the flood output's origin. Returns the request's result.
  int FillRecordOutputs(double rowsUpTo, vtkInformationVector* outputVector);
  // An empty output marked ABORTED, which asks to run again next time, for a request whose error
  // has been said. Returns the request's result.
  int AbortOutputQuietly();
  // After RequestData failed (in the run to output time from, if finite): drops the run, has the
  // output emptied and marked ABORTED, and reports the error once. Returns the request's result.
  int RequestDataFailed(const char* message, double from);

  double BoundaryWestStretch[2] = { 0, 0 };
  double BoundaryEastStretch[2] = { 0, 0 };
  double BoundarySouthStretch[2] = { 0, 0 };
  double BoundaryNorthStretch[2] = { 0, 0 };
  int FloodMaps;
  int WaterBalance;
  int SkipDryLand;
  int Scheme;
  int BoundaryWest, BoundaryEast, BoundarySouth, BoundaryNorth;
  double BoundaryWestDischarge, BoundaryEastDischarge, BoundarySouthDischarge,
    BoundaryNorthDischarge;
  double BoundaryWestLevel, BoundaryEastLevel, BoundarySouthLevel, BoundaryNorthLevel;
  char* Device;
  int Precision;
  double EndTime;
  double OutputInterval;

  class vtkInternals;
  vtkInternals* Internals;
};

#endif
