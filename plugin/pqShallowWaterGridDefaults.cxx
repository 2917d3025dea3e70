#include "pqShallowWaterGridDefaults.h"

#include <pqApplicationCore.h>
#include <pqPipelineSource.h>
#include <pqServerManagerModel.h>
#include <vtkSMProperty.h>
#include <vtkSMPropertyHelper.h>
#include <vtkSMProxy.h>

#include <cstring>
#include <string>

namespace
{
constexpr int kCpuCells = 500;
constexpr double kCpuCellSize = 1.0;

// Whether the proxy's server lists a GPU among its OpenCL devices ("0: name (GPU)").
bool serverHasGpu(vtkSMProxy* proxy)
{
  proxy->UpdatePropertyInformation(proxy->GetProperty("AvailableDevices"));
  vtkSMPropertyHelper devices(proxy, "AvailableDevices");
  for (unsigned int k = 0; k < devices.GetNumberOfElements(); ++k)
    if (std::string(devices.GetAsString(k)).find("(GPU)") != std::string::npos)
      return true;
  return false;
}
} // namespace

pqShallowWaterGridDefaults::pqShallowWaterGridDefaults(QObject* parent)
  : QObject(parent)
{
}

void pqShallowWaterGridDefaults::startup()
{
  QObject::connect(pqApplicationCore::instance()->getServerManagerModel(),
    &pqServerManagerModel::sourceAdded,
    this,
    &pqShallowWaterGridDefaults::sized);
}

void pqShallowWaterGridDefaults::sized(pqPipelineSource* source)
{
  vtkSMProxy* proxy = source ? source->getProxy() : nullptr;
  if (!proxy || std::strcmp(proxy->GetXMLName(), "ShallowWaterSource") != 0 ||
      pqApplicationCore::instance()->isLoadingState())
    return;
  vtkSMProperty* resolution = proxy->GetProperty("Resolution");
  vtkSMProperty* cellSize = proxy->GetProperty("CellSize");
  if (!resolution || !cellSize || !resolution->IsValueDefault() || !cellSize->IsValueDefault() ||
      serverHasGpu(proxy))
    return;
  vtkSMPropertyHelper(resolution).Set(0, kCpuCells);
  vtkSMPropertyHelper(resolution).Set(1, kCpuCells);
  vtkSMPropertyHelper(cellSize).Set(kCpuCellSize);
  proxy->UpdateVTKObjects();
}
