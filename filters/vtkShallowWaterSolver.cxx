#include "vtkShallowWaterSolver.h"

#include "Error.h"
#include "ImageInitialState.h"

#include <vtkDataObject.h>
#include <vtkImageData.h>
#include <vtkInformation.h>
#include <vtkInformationVector.h>
#include <vtkObjectFactory.h>
#include <vtkStreamingDemandDrivenPipeline.h>

vtkStandardNewMacro(vtkShallowWaterSolver);

vtkShallowWaterSolver::vtkShallowWaterSolver()
  : BedArray("Bed")
  , InitialWaterLevel(0.0)
  , InputTime(0)
{
  this->SetNumberOfInputPorts(1);
}

int vtkShallowWaterSolver::FillInputPortInformation(int, vtkInformation* info)
{
  info->Set(vtkAlgorithm::INPUT_REQUIRED_DATA_TYPE(), "vtkImageData");
  return 1;
}

void vtkShallowWaterSolver::SetArrayName(std::string& member, const char* name)
{
  std::string value = name ? name : "";
  if (value == "None")
    value.clear();
  if (member != value)
  {
    member = value;
    this->PhysicsChanged();
  }
}

void vtkShallowWaterSolver::SetBedArray(const char* name)
{
  this->SetArrayName(this->BedArray, name);
}

void vtkShallowWaterSolver::SetDepthArray(const char* name)
{
  this->SetArrayName(this->DepthArray, name);
}

void vtkShallowWaterSolver::SetFreeSurfaceArray(const char* name)
{
  this->SetArrayName(this->FreeSurfaceArray, name);
}

void vtkShallowWaterSolver::SetVelocityArray(const char* name)
{
  this->SetArrayName(this->VelocityArray, name);
}

void vtkShallowWaterSolver::SetManningArray(const char* name)
{
  this->SetArrayName(this->ManningArray, name);
}

void vtkShallowWaterSolver::SetInitialWaterLevel(double level)
{
  if (this->InitialWaterLevel != level)
  {
    this->InitialWaterLevel = level;
    this->PhysicsChanged();
  }
}

void vtkShallowWaterSolver::DescribeGrid(vtkInformationVector** inputVector,
  int resolution[2],
  double& cellSize,
  double origin[3])
{
  vtkInformation* inInfo = inputVector[0]->GetInformationObject(0);
  if (!inInfo || !inInfo->Has(vtkStreamingDemandDrivenPipeline::WHOLE_EXTENT()))
    throw swe::Error("the Shallow Water Solver needs an image (vtkImageData) input");
  int extent[6];
  inInfo->Get(vtkStreamingDemandDrivenPipeline::WHOLE_EXTENT(), extent);
  double spacing[3] = { 1, 1, 1 }, inputOrigin[3] = { 0, 0, 0 };
  if (inInfo->Has(vtkDataObject::SPACING()))
    inInfo->Get(vtkDataObject::SPACING(), spacing);
  if (inInfo->Has(vtkDataObject::ORIGIN()))
    inInfo->Get(vtkDataObject::ORIGIN(), inputOrigin);
  swe::imageGrid(extent, spacing, inputOrigin, resolution[0], resolution[1], cellSize, origin);
  swe::requireFinite(this->InitialWaterLevel, "InitialWaterLevel");
}

swe::InitialState vtkShallowWaterSolver::MakeInitialState(const swe::SimulationParameters& params,
  vtkInformationVector** inputVector)
{
  swe::ImageArrays arrays;
  arrays.bed = this->BedArray;
  arrays.depth = this->DepthArray;
  arrays.freeSurface = this->FreeSurfaceArray;
  arrays.velocity = this->VelocityArray;
  arrays.manning = this->ManningArray;
  arrays.initialWaterLevel = this->InitialWaterLevel;
  swe::InitialState state =
    swe::imageInitialState(vtkImageData::GetData(inputVector[0], 0), arrays);
  if (state.nx != params.nx || state.ny != params.ny)
    throw swe::Error("the input image is " + std::to_string(state.nx) + " x " +
                     std::to_string(state.ny) + " cells but its information said " +
                     std::to_string(params.nx) + " x " + std::to_string(params.ny));
  return state;
}

bool vtkShallowWaterSolver::InitialStateChanged(vtkInformationVector** inputVector)
{
  vtkImageData* input = vtkImageData::GetData(inputVector[0], 0);
  const vtkMTimeType time = input ? input->GetMTime() : 0;
  const bool changed = time != this->InputTime;
  this->InputTime = time;
  return changed;
}

void vtkShallowWaterSolver::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "BedArray: " << this->BedArray << "\n";
  os << indent << "DepthArray: " << this->DepthArray << "\n";
  os << indent << "FreeSurfaceArray: " << this->FreeSurfaceArray << "\n";
  os << indent << "VelocityArray: " << this->VelocityArray << "\n";
  os << indent << "ManningArray: " << this->ManningArray << "\n";
  os << indent << "InitialWaterLevel: " << this->InitialWaterLevel << "\n";
}
