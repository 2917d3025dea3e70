#include "vtkShallowWaterSource.h"

#include "Error.h"
#include "InitialState.h"
#include "Partition.h"

#include <vtkObjectFactory.h>

vtkStandardNewMacro(vtkShallowWaterSource);

vtkShallowWaterSource::vtkShallowWaterSource()
  : CellSize(0.5)
  , Scenario(0)
{
  this->Resolution[0] = this->Resolution[1] = 1000;
  this->SetNumberOfInputPorts(0);
}

void vtkShallowWaterSource::SetResolution(int nx, int ny)
{
  if (this->Resolution[0] != nx || this->Resolution[1] != ny)
  {
    this->Resolution[0] = nx;
    this->Resolution[1] = ny;
    this->PhysicsChanged();
  }
}

void vtkShallowWaterSource::SetCellSize(double dx)
{
  if (this->CellSize != dx)
  {
    this->CellSize = dx;
    this->PhysicsChanged();
  }
}

void vtkShallowWaterSource::SetScenario(int scenario)
{
  if (this->Scenario != scenario)
  {
    this->Scenario = scenario;
    this->PhysicsChanged();
  }
}

void vtkShallowWaterSource::DescribeGrid(vtkInformationVector**,
  bool,
  int resolution[2],
  double& cellSize,
  double origin[3])
{
  if (this->Resolution[0] <= 0 || this->Resolution[1] <= 0)
    throw swe::Error("Resolution must be at least 1 x 1 cells, got " +
                     std::to_string(this->Resolution[0]) + " x " +
                     std::to_string(this->Resolution[1]));
  const auto& scenarios = swe::scenarioNames();
  if (this->Scenario < 0 || this->Scenario >= static_cast<int>(scenarios.size()))
    throw swe::Error("Scenario must be between 0 and " + std::to_string(scenarios.size() - 1) +
                     ", got " + std::to_string(this->Scenario));
  resolution[0] = this->Resolution[0];
  resolution[1] = this->Resolution[1];
  cellSize = this->CellSize;
  origin[0] = origin[1] = origin[2] = 0;
}

swe::InitialState vtkShallowWaterSource::MakeInitialState(swe::SimulationParameters& params,
  const swe::Block* block,
  vtkInformationVector**)
{
  const auto scenario = static_cast<swe::Scenario>(this->Scenario);
  return block ? swe::makeScenario(scenario, params, block->x0, block->y0, block->nx, block->ny)
               : swe::makeScenario(scenario, params);
}

void vtkShallowWaterSource::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "Resolution: " << this->Resolution[0] << " x " << this->Resolution[1] << "\n";
  os << indent << "CellSize: " << this->CellSize << "\n";
  os << indent << "Scenario: " << this->Scenario << "\n";
}
