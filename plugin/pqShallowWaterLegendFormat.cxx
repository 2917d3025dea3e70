#include "pqShallowWaterLegendFormat.h"

#include "ShallowWaterDisplayDefaults.h"

#include <pqApplicationCore.h>
#include <pqProxy.h>
#include <pqRepresentation.h>
#include <pqServerManagerModel.h>
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
