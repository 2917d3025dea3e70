#include "pqShallowWaterLegendFormat.h"

#include "ShallowWaterDisplayDefaults.h"

#include <pqApplicationCore.h>
#include <pqProxy.h>
#include <pqRepresentation.h>
#include <pqServerManagerModel.h>
#include <vtkSMProperty.h>
#include <vtkSMPropertyHelper.h>
#include <vtkSMProxy.h>

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
  if (!format || !lookupTable || !format->IsValueDefault() ||
      !shallow_water_has_display_defaults(
        arrayOfLookupTable(vtkSMPropertyHelper(lookupTable).GetAsProxy())))
    return;
  vtkSMPropertyHelper(format).Set(kPlainNumbers);
  legend->UpdateVTKObjects();
}
