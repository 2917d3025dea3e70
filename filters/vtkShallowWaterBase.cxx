#include "vtkShallowWaterBase.h"

#include "vtkShallowWaterBaseInternals.h"

#include "Devices.h"
#include "Error.h"
#include "OutputArrays.h"
#include "PropertyParameters.h"

#include <vtkCommand.h>
#include <vtkDataArraySelection.h>
#include <vtkObjectFactory.h>
#include <vtkStringArray.h>

#include <algorithm>
#include <string>

vtkShallowWaterBase::vtkShallowWaterBase()
  : FloodMaps(0)
  , WaterBalance(0)
  , SkipDryLand(1)
  , Scheme(0)
  , BoundaryWest(0)
  , BoundaryEast(0)
  , BoundarySouth(0)
  , BoundaryNorth(0)
  , BoundaryWestDischarge(0)
  , BoundaryEastDischarge(0)
  , BoundarySouthDischarge(0)
  , BoundaryNorthDischarge(0)
  , BoundaryWestLevel(0)
  , BoundaryEastLevel(0)
  , BoundarySouthLevel(0)
  , BoundaryNorthLevel(0)
  , Device(nullptr)
  , Precision(SINGLE)
  , EndTime(20.0)
  , OutputInterval(0.5)
  , Internals(new vtkInternals(this))
{
  this->SetDevice("auto");
  this->SetNumberOfOutputPorts(4); // the flood, its gauges, its diagnostics, the gauge markers
  for (const char* name : swe::kFrameArrayNames)
    this->Internals->CellArrays->AddArray(name, true);
  // Another choice of arrays makes the same frame again, from the same simulation.
  this->Internals->CellArrays->AddObserver(
    vtkCommand::ModifiedEvent, this, &vtkShallowWaterBase::Modified);
}

vtkDataArraySelection* vtkShallowWaterBase::GetCellArraySelection()
{
  return this->Internals->CellArrays;
}

vtkDataArraySelection* vtkShallowWaterBase::GetMadeCellArraySelection()
{
  swe::KeptArraysMade kept;
  kept.floodMaps = this->FloodMaps != 0;
  kept.infiltration = this->KeepsInfiltration();
  kept.inflow = this->WaterBalance != 0;
  swe::listMadeFrameArrays(this->Internals->CellArrays, kept, this->Internals->MadeCellArrays);
  return this->Internals->MadeCellArrays;
}

vtkShallowWaterBase::~vtkShallowWaterBase()
{
  delete this->Internals;
  delete[] this->Device;
}

void vtkShallowWaterBase::PhysicsChanged()
{
  this->Internals->Run.restart();
  this->Modified();
}

// Each physics setter: store, and restart only when the value really changed (ParaView pushes
// every property on Apply).
#define vtkShallowWaterPhysicsSetter(name, type)                                                   \
  void vtkShallowWaterBase::Set##name(type value)                                                  \
  {                                                                                                \
    if (this->name != value)                                                                       \
    {                                                                                              \
      this->name = value;                                                                          \
      this->PhysicsChanged();                                                                      \
    }                                                                                              \
  }
vtkShallowWaterPhysicsSetter(FloodMaps, int);
vtkShallowWaterPhysicsSetter(WaterBalance, int);
vtkShallowWaterPhysicsSetter(SkipDryLand, int);
vtkShallowWaterPhysicsSetter(Scheme, int);
vtkShallowWaterPhysicsSetter(BoundaryWest, int);
vtkShallowWaterPhysicsSetter(BoundaryEast, int);
vtkShallowWaterPhysicsSetter(BoundarySouth, int);
vtkShallowWaterPhysicsSetter(BoundaryNorth, int);
vtkShallowWaterPhysicsSetter(BoundaryWestDischarge, double);
vtkShallowWaterPhysicsSetter(BoundaryEastDischarge, double);
vtkShallowWaterPhysicsSetter(BoundarySouthDischarge, double);
vtkShallowWaterPhysicsSetter(BoundaryNorthDischarge, double);
vtkShallowWaterPhysicsSetter(BoundaryWestLevel, double);
vtkShallowWaterPhysicsSetter(BoundaryEastLevel, double);
vtkShallowWaterPhysicsSetter(BoundarySouthLevel, double);
vtkShallowWaterPhysicsSetter(BoundaryNorthLevel, double);
vtkShallowWaterPhysicsSetter(Precision, int);
#undef vtkShallowWaterPhysicsSetter

// The scalar properties, kept by swe::ScalarId in the order of swe::scalarParameters().
void vtkShallowWaterBase::SetScalar(const char* property, double value)
{
  double& kept =
    this->Internals->Scalars[static_cast<std::size_t>(swe::scalarParameterOfProperty(property).id)];
  if (kept != value)
  {
    kept = value;
    this->PhysicsChanged();
  }
}

double vtkShallowWaterBase::GetScalar(const char* property) const
{
  return this->Internals
    ->Scalars[static_cast<std::size_t>(swe::scalarParameterOfProperty(property).id)];
}

#define vtkShallowWaterScalarProperty(name, type)                                                  \
  void vtkShallowWaterBase::Set##name(type value)                                                  \
  {                                                                                                \
    this->SetScalar(#name, value);                                                                 \
  }                                                                                                \
  type vtkShallowWaterBase::Get##name()                                                            \
  {                                                                                                \
    return static_cast<type>(this->GetScalar(#name));                                              \
  }
vtkShallowWaterScalarProperty(Gravity, double);
vtkShallowWaterScalarProperty(ManningCoefficient, double);
vtkShallowWaterScalarProperty(Rainfall, double);
vtkShallowWaterScalarProperty(LossRate, double);
vtkShallowWaterScalarProperty(HydraulicConductivity, double);
vtkShallowWaterScalarProperty(SuctionHead, double);
vtkShallowWaterScalarProperty(MoistureDeficit, double);
vtkShallowWaterScalarProperty(ArrivalDepth, double);
vtkShallowWaterScalarProperty(GaugeInterval, double);
vtkShallowWaterScalarProperty(CourantNumber, double);
vtkShallowWaterScalarProperty(FixedTimeStep, double);
vtkShallowWaterScalarProperty(ExchangeInterval, int);
#undef vtkShallowWaterScalarProperty

bool vtkShallowWaterBase::KeepsInfiltration() const
{
  return this->GetScalar("HydraulicConductivity") > 0;
}

void vtkShallowWaterBase::AddSeriesPoint(int which, double time, double value)
{
  this->Internals->Series[static_cast<std::size_t>(which)].push_back({ time, value });
  this->PhysicsChanged();
}

void vtkShallowWaterBase::RemoveAllSeriesPoints(int which)
{
  swe::Series& series = this->Internals->Series[static_cast<std::size_t>(which)];
  if (series.empty())
    return;
  series.clear();
  this->PhysicsChanged();
}

// The series properties' commands (the XML's command and clean_command).
#define vtkShallowWaterSeriesCommands(name, which)                                                 \
  void vtkShallowWaterBase::Add##name##Point(double time, double value)                            \
  {                                                                                                \
    this->AddSeriesPoint(which, time, value);                                                      \
  }                                                                                                \
  void vtkShallowWaterBase::RemoveAll##name##Points()                                              \
  {                                                                                                \
    this->RemoveAllSeriesPoints(which);                                                            \
  }
vtkShallowWaterSeriesCommands(RainfallSeries, 0);
vtkShallowWaterSeriesCommands(BoundaryWestSeries, 1);
vtkShallowWaterSeriesCommands(BoundaryEastSeries, 2);
vtkShallowWaterSeriesCommands(BoundarySouthSeries, 3);
vtkShallowWaterSeriesCommands(BoundaryNorthSeries, 4);
vtkShallowWaterSeriesCommands(Gauge, 5);

// A side's stretch: a physics change, as the other boundary properties.
#define vtkShallowWaterStretchSetter(name)                                                         \
  void vtkShallowWaterBase::Set##name(double from, double to)                                      \
  {                                                                                                \
    if (this->name[0] != from || this->name[1] != to)                                              \
    {                                                                                              \
      this->name[0] = from;                                                                        \
      this->name[1] = to;                                                                          \
      this->PhysicsChanged();                                                                      \
    }                                                                                              \
  }
vtkShallowWaterStretchSetter(BoundaryWestStretch);
vtkShallowWaterStretchSetter(BoundaryEastStretch);
vtkShallowWaterStretchSetter(BoundarySouthStretch);
vtkShallowWaterStretchSetter(BoundaryNorthStretch);

void vtkShallowWaterBase::AddPointSourceRow(double x, double y, double time, double discharge)
{
  this->Internals->SourceRows.push_back({ x, y, time, discharge });
  this->PhysicsChanged();
}

void vtkShallowWaterBase::RemoveAllPointSourceRows()
{
  if (this->Internals->SourceRows.empty())
    return;
  this->Internals->SourceRows.clear();
  this->PhysicsChanged();
}

void vtkShallowWaterBase::SetDevice(const char* device)
{
  const std::string value = device ? device : "auto";
  if (this->Device && value == this->Device)
    return;
  delete[] this->Device;
  this->Device = new char[value.size() + 1];
  std::copy(value.c_str(), value.c_str() + value.size() + 1, this->Device);
  this->PhysicsChanged();
}

void vtkShallowWaterBase::SetEndTime(double t)
{
  if (this->EndTime != t)
  {
    this->EndTime = t;
    this->Modified();
  }
}

void vtkShallowWaterBase::SetOutputInterval(double interval)
{
  if (this->OutputInterval == interval)
    return;
  this->OutputInterval = interval;
  try
  {
    this->Internals->Run.setOutputInterval(interval);
  }
  catch (const swe::Error& e)
  {
    vtkErrorMacro(<< e.what()); // (the next request starts afresh)
  }
  this->Modified();
}

void vtkShallowWaterBase::Reset()
{
  this->PhysicsChanged();
}

const char* vtkShallowWaterBase::GetRunStatus()
{
  return this->Internals->Run.status().c_str();
}

vtkStringArray* vtkShallowWaterBase::GetAvailableDevices()
{
  vtkInternals& internals = *this->Internals;
  if (!internals.DevicesListed)
  {
    internals.DevicesListed = true;
    internals.Devices->InsertNextValue("auto");
    try
    {
      for (const auto& device : swe::listDevices())
        internals.Devices->InsertNextValue(device.label());
    }
    catch (const swe::Error& e)
    {
      vtkErrorMacro(<< e.what());
    }
  }
  return internals.Devices;
}

swe::PropertyValues vtkShallowWaterBase::SharedPropertyValues() const
{
  swe::PropertyValues values;
  values.scalars = this->Internals->Scalars;
  values.rainfallSeries = this->Internals->Series[0];
  const double* stretches[4] = { this->BoundaryWestStretch,
    this->BoundaryEastStretch,
    this->BoundarySouthStretch,
    this->BoundaryNorthStretch };
  for (std::size_t side = 0; side < 4; ++side)
    values.boundaryStretches[side] = { stretches[side][0], stretches[side][1] };
  for (std::size_t side = 0; side < 4; ++side)
    values.boundarySeries[side] = this->Internals->Series[side + 1];
  values.gauges = this->Internals->Series[5];
  values.sourceRows = this->Internals->SourceRows;
  values.floodMaps = this->FloodMaps != 0;
  values.waterBalance = this->WaterBalance != 0;
  values.skipDry = this->SkipDryLand != 0;
  values.scheme = this->Scheme;
  values.boundaryTypes = {
    this->BoundaryWest, this->BoundaryEast, this->BoundarySouth, this->BoundaryNorth
  };
  values.boundaryDischarges = { this->BoundaryWestDischarge,
    this->BoundaryEastDischarge,
    this->BoundarySouthDischarge,
    this->BoundaryNorthDischarge };
  values.boundaryLevels = { this->BoundaryWestLevel,
    this->BoundaryEastLevel,
    this->BoundarySouthLevel,
    this->BoundaryNorthLevel };
  values.device = this->Device ? this->Device : "auto";
  values.precision = this->Precision;
  values.endTime = this->EndTime;
  values.outputInterval = this->OutputInterval;
  return values;
}

void vtkShallowWaterBase::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  for (const swe::ScalarParameter& parameter : swe::scalarParameters())
    os << indent << parameter.property << ": "
       << this->Internals->Scalars[static_cast<std::size_t>(parameter.id)] << "\n";
  os << indent << "FloodMaps: " << this->FloodMaps << "\n";
  os << indent << "WaterBalance: " << this->WaterBalance << "\n";
  os << indent << "SkipDryLand: " << this->SkipDryLand << "\n";
  os << indent << "Scheme: " << this->Scheme << "\n";
  os << indent << "Boundaries (W, E, S, N): " << this->BoundaryWest << " " << this->BoundaryEast
     << " " << this->BoundarySouth << " " << this->BoundaryNorth << "; discharges "
     << this->BoundaryWestDischarge << " " << this->BoundaryEastDischarge << " "
     << this->BoundarySouthDischarge << " " << this->BoundaryNorthDischarge << "; levels "
     << this->BoundaryWestLevel << " " << this->BoundaryEastLevel << " " << this->BoundarySouthLevel
     << " " << this->BoundaryNorthLevel << "\n";
  os << indent << "Device: " << (this->Device ? this->Device : "(none)") << "\n";
  os << indent << "Precision: " << (this->Precision == DOUBLE ? "double" : "single") << "\n";
  os << indent << "EndTime: " << this->EndTime << "\n";
  os << indent << "OutputInterval: " << this->OutputInterval << "\n";
  os << indent << "CellArraySelection:\n";
  this->Internals->CellArrays->PrintSelf(os, indent.GetNextIndent());
}
