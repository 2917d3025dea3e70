#include "pqShallowWaterLegendFormat.h"

#include "ShallowWaterDisplayDefaults.h"

#include "pqShallowWaterProxies.h"

#include <pqApplicationCore.h>
#include <pqDataRepresentation.h>
#include <pqOutputPort.h>
#include <pqProxy.h>
#include <pqRepresentation.h>
#include <pqServerManagerModel.h>
#include <vtkPVArrayInformation.h>
#include <vtkPVDataInformation.h>
#include <vtkPVDataSetAttributesInformation.h>
#include <vtkSMPVRepresentationProxy.h>
#include <vtkSMProperty.h>
#include <vtkSMPropertyHelper.h>
#include <vtkCallbackCommand.h>
#include <vtkCommand.h>
#include <vtkNew.h>
#include <vtkSMProxy.h>
#include <vtkSMTransferFunctionProxy.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

namespace
{
// Three significant digits, no exponent below 10^3: 0, 0.25, 8.61, 120, 1.23e+03.
constexpr const char* kPlainNumbers = "%.3g";
constexpr const char* kLookupTableSuffix = ".PVLookupTable";

// The array a colour map was made for: ParaView registers it as "<array>.PVLookupTable".
std::string arrayOfLookupTable(vtkSMProxy* lookupTable)
{
  pqProxy* registered =
    pqApplicationCore::instance()->getServerManagerModel()->findItem<pqProxy*>(lookupTable);
  const std::string name = registered ? registered->getSMName().toStdString() : "";
  const std::size_t suffix = name.rfind(kLookupTableSuffix);
  return suffix == std::string::npos ? std::string() : name.substr(0, suffix);
}

// A colour map of a dry frame (every depth 0) spans 0 to 1.2e-38 m as ParaView widens an empty
// range, and its legend reads 2e-39, 4e-39, ...: such a range becomes 0 to 1 (in the array's
// unit), which the map's growth with the data then widens.
void widenEmptyRange(vtkObject* caller, unsigned long, void*, void*)
{
  auto* lookupTable = static_cast<vtkSMProxy*>(caller);
  vtkSMPropertyHelper points(lookupTable, "RGBPoints");
  const unsigned int count = points.GetNumberOfElements();
  if (count < 8) // (x, r, g, b a point; two points at least)
    return;
  const double low = points.GetAsDouble(0), high = points.GetAsDouble(count - 4);
  if (high - low < 1e-12 * std::max(1.0, std::fabs(low)))
    vtkSMTransferFunctionProxy::RescaleTransferFunction(lookupTable, low, low + 1.0);
}
} // namespace

bool pqShallowWaterLegendFormat::RunMark::startsAnotherRun(const RunMark& before) const
{
  // (another run: other settings, or other initial water: a later or the same time reached in
  // fewer steps, or the same time in another count)
  if (before.steps < 0 || this->steps < 0)
    return false;
  return this->settings != before.settings ||
         (this->time >= before.time && this->steps < before.steps) ||
         (this->time == before.time && this->steps != before.steps);
}

pqShallowWaterLegendFormat::RunMark pqShallowWaterLegendFormat::runMarkOf(pqPipelineSource* source)
{
  vtkPVDataInformation* info = source->getOutputPort(0)->getDataInformation();
  vtkPVDataSetAttributesInformation* field = info ? info->GetFieldDataInformation() : nullptr;
  RunMark mark;
  if (!field)
    return mark;
  vtkPVArrayInformation* settings = field->GetArrayInformation("RunSettings");
  if (settings && settings->GetNumberOfStringValues() > 0)
    mark.settings = settings->GetStringValue(0);
  for (auto [name, value] : { std::pair{ "SimulationTime", &mark.time }, { "Steps", &mark.steps } })
  {
    vtkPVArrayInformation* array = field->GetArrayInformation(name);
    if (array && array->GetNumberOfComponents() > 0)
      *value = array->GetComponentRange(0)[0];
  }
  return mark;
}

pqShallowWaterLegendFormat::pqShallowWaterLegendFormat(QObject* parent)
  : QObject(parent)
{
}

void pqShallowWaterLegendFormat::startup()
{
  QObject::connect(pqApplicationCore::instance()->getServerManagerModel(),
    &pqServerManagerModel::representationAdded,
    this,
    &pqShallowWaterLegendFormat::formatted);
  QObject::connect(pqApplicationCore::instance()->getServerManagerModel(),
    &pqServerManagerModel::sourceAdded,
    this,
    &pqShallowWaterLegendFormat::watch);
  QObject::connect(pqApplicationCore::instance()->getServerManagerModel(),
    &pqServerManagerModel::preSourceRemoved,
    this,
    [this](pqPipelineSource* source) { this->LastFrames.remove(source); });
}

void pqShallowWaterLegendFormat::watch(pqPipelineSource* source)
{
  if (isShallowWater(source))
    QObject::connect(source,
      QOverload<pqPipelineSource*>::of(&pqPipelineSource::dataUpdated),
      this,
      &pqShallowWaterLegendFormat::rescaleForNewRun);
}

void pqShallowWaterLegendFormat::rescaleForNewRun(pqPipelineSource* source)
{
  // The colour maps grow with the data every time step; another run (a property applied) starts
  // from its own frame's range, not from the largest values of the run before.
  const RunMark now = runMarkOf(source);
  const RunMark before = this->LastFrames.value(source);
  this->LastFrames[source] = now;
  if (!now.startsAnotherRun(before))
    return;
  for (pqDataRepresentation* shown : source->getOutputPort(0)->getRepresentations(nullptr))
    if (shown && shown->isVisible() && shown->getLookupTableProxy())
      vtkSMPVRepresentationProxy::RescaleTransferFunctionToDataRange(
        shown->getProxy(), false, false);
}

void pqShallowWaterLegendFormat::formatted(pqRepresentation* representation)
{
  vtkSMProxy* legend = representation ? representation->getProxy() : nullptr;
  if (!legend || std::strcmp(legend->GetXMLName(), "ScalarBarWidgetRepresentation") != 0 ||
      pqApplicationCore::instance()->isLoadingState())
    return;
  vtkSMProperty* format = legend->GetProperty("RangeLabelFormat");
  vtkSMProperty* lookupTable = legend->GetProperty("LookupTable");
  vtkSMProxy* map = lookupTable ? vtkSMPropertyHelper(lookupTable).GetAsProxy() : nullptr;
  if (!format || !map || !shallow_water_has_display_defaults(arrayOfLookupTable(map)))
    return;
  if (std::find(this->Watched.begin(), this->Watched.end(), map) == this->Watched.end())
  {
    this->Watched.erase(
      std::remove(this->Watched.begin(), this->Watched.end(), nullptr), this->Watched.end());
    this->Watched.emplace_back(map);
    vtkNew<vtkCallbackCommand> widen;
    widen->SetCallback(&widenEmptyRange);
    map->AddObserver(vtkCommand::PropertyModifiedEvent, widen);
    widenEmptyRange(map, vtkCommand::PropertyModifiedEvent, nullptr, nullptr);
  }
  if (!format->IsValueDefault())
    return;
  vtkSMPropertyHelper(format).Set(kPlainNumbers);
  legend->UpdateVTKObjects();
}
