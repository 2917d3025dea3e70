#include "pqShallowWaterGaugeMarkers.h"

#include <pqDataRepresentation.h>
#include <pqOutputPort.h>
#include <pqPipelineSource.h>
#include <pqView.h>
#include <vtkDataObject.h>
#include <vtkNew.h>
#include <vtkSMPVRepresentationProxy.h>
#include <vtkSMParaViewPipelineControllerWithRendering.h>
#include <vtkSMPropertyHelper.h>
#include <vtkSMSourceProxy.h>
#include <vtkSMTransferFunctionProxy.h>
#include <vtkSMViewProxy.h>

#include <QVariant>

#include <string>

namespace
{
constexpr int kGaugeMarkersPort = 3;
// (square points: ParaView 5.11's points as spheres are not drawn over the map in every
// OpenGL, Mesa's software one among them)
constexpr int kMarkerPixels = 14;
constexpr int kUpperLeftCorner = 4; // (the legend's WindowLocation)
// (a Qt property of the markers' representation hidden when the source's gauges all went)
constexpr const char* kHiddenForNoGauges = "swe_hidden_for_no_gauges";

// One colour a gauge, by its number, and its name: G1, G2, ... as in the Gauges table.
void nameByColour(vtkSMProxy* lookupTable, int gauges)
{
  vtkSMPropertyHelper(lookupTable, "IndexedLookup").Set(1);
  vtkSMPropertyHelper annotations(lookupTable, "Annotations");
  vtkSMPropertyHelper colours(lookupTable, "IndexedColors");
  annotations.SetNumberOfElements(2 * static_cast<unsigned int>(gauges));
  colours.SetNumberOfElements(3 * static_cast<unsigned int>(gauges));
  for (int g = 0; g < gauges; ++g)
  {
    const auto k = static_cast<unsigned int>(g);
    annotations.Set(2 * k, std::to_string(g + 1).c_str());
    annotations.Set(2 * k + 1, ("G" + std::to_string(g + 1)).c_str());
    for (unsigned int c = 0; c < 3; ++c)
      colours.Set(3 * k + c, gaugeColour(g)[c]);
  }
  lookupTable->UpdateVTKObjects();
}
} // namespace

const std::array<double, 3>& gaugeColour(int gauge)
{
  static const std::array<double, 3> palette[] = { { 0.12, 0.47, 0.71 },
    { 1.0, 0.5, 0.05 },
    { 0.58, 0.4, 0.74 },
    { 0.0, 0.0, 0.0 },
    { 0.55, 0.34, 0.29 },
    { 0.89, 0.47, 0.76 } };
  constexpr int kColours = sizeof(palette) / sizeof(palette[0]);
  return palette[gauge % kColours];
}

void nameGaugeMarkers(pqPipelineSource* source, int gauges)
{
  if (source->getNumberOfOutputPorts() <= kGaugeMarkersPort)
    return;
  pqOutputPort* port = source->getOutputPort(kGaugeMarkersPort);
  for (pqView* view : port->getViews())
  {
    pqDataRepresentation* markers = port->getRepresentation(view);
    vtkSMProxy* lookupTable =
      markers ? vtkSMPropertyHelper(markers->getProxy(), "LookupTable", true).GetAsProxy()
              : nullptr;
    if (lookupTable)
      nameByColour(lookupTable, gauges);
  }
}

void hideGaugeMarkers(pqPipelineSource* source)
{
  if (source->getNumberOfOutputPorts() <= kGaugeMarkersPort)
    return;
  pqOutputPort* port = source->getOutputPort(kGaugeMarkersPort);
  for (pqView* view : port->getViews())
  {
    pqDataRepresentation* markers = port->getRepresentation(view);
    if (!markers || !markers->isVisible())
      continue;
    vtkSMPVRepresentationProxy::SetScalarBarVisibility(
      markers->getProxy(), view->getViewProxy(), false);
    markers->setVisible(false);
    markers->setProperty(kHiddenForNoGauges, true);
  }
}

void showGaugeMarkers(pqPipelineSource* source, pqView* map, int gauges)
{
  if (!map || gauges <= 0 || source->getNumberOfOutputPorts() <= kGaugeMarkersPort)
    return;
  pqOutputPort* port = source->getOutputPort(kGaugeMarkersPort);
  // (shown already: left as it is, unless it was hidden when the gauges went)
  if (!port->getViews().isEmpty())
  {
    for (pqView* view : port->getViews())
    {
      pqDataRepresentation* markers = port->getRepresentation(view);
      if (!markers || !markers->property(kHiddenForNoGauges).toBool())
        continue;
      markers->setProperty(kHiddenForNoGauges, false);
      markers->setVisible(true);
      if (vtkSMProxy* lookupTable =
            vtkSMPropertyHelper(markers->getProxy(), "LookupTable").GetAsProxy())
        nameByColour(lookupTable, gauges);
      vtkSMPVRepresentationProxy::SetScalarBarVisibility(
        markers->getProxy(), view->getViewProxy(), true);
    }
    return;
  }
  vtkSMViewProxy* view = map->getViewProxy();
  vtkNew<vtkSMParaViewPipelineControllerWithRendering> controller;
  vtkSMProxy* markers =
    controller->Show(vtkSMSourceProxy::SafeDownCast(source->getProxy()), kGaugeMarkersPort, view);
  if (!markers)
    return;
  vtkSMPropertyHelper(markers, "Representation").Set("Points");
  vtkSMPropertyHelper(markers, "PointSize").Set(kMarkerPixels);
  vtkSMPVRepresentationProxy::SetScalarColoring(markers, "Gauge", vtkDataObject::POINT);
  if (vtkSMProxy* lookupTable = vtkSMPropertyHelper(markers, "LookupTable").GetAsProxy())
  {
    nameByColour(lookupTable, gauges);
    vtkSMPVRepresentationProxy::SetScalarBarVisibility(markers, view, true);
    if (vtkSMProxy* legend =
          vtkSMTransferFunctionProxy::FindScalarBarRepresentation(lookupTable, view))
    {
      vtkSMPropertyHelper(legend, "Title").Set("Gauges");
      vtkSMPropertyHelper(legend, "ComponentTitle").Set("");
      vtkSMPropertyHelper(legend, "WindowLocation").Set(kUpperLeftCorner);
      legend->UpdateVTKObjects();
    }
  }
  markers->UpdateVTKObjects();
}
