#include "pqShallowWaterGaugeChart.h"

#include "pqShallowWaterProxies.h"

#include <pqApplicationCore.h>
#include <pqObjectBuilder.h>
#include <pqOutputPort.h>
#include <pqPipelineSource.h>
#include <pqServer.h>
#include <pqServerManagerModel.h>
#include <pqView.h>
#include <vtkNew.h>
#include <vtkPVDataInformation.h>
#include <vtkPVDataSetAttributesInformation.h>
#include <vtkSMParaViewPipelineControllerWithRendering.h>
#include <vtkSMPropertyHelper.h>
#include <vtkSMSourceProxy.h>
#include <vtkSMViewProxy.h>

namespace
{
constexpr int kGaugesPort = 1;
} // namespace

pqShallowWaterGaugeChart::pqShallowWaterGaugeChart(QObject* parent)
  : QObject(parent)
{
}

void pqShallowWaterGaugeChart::startup()
{
  pqServerManagerModel* model = pqApplicationCore::instance()->getServerManagerModel();
  QObject::connect(
    model, &pqServerManagerModel::sourceAdded, this, &pqShallowWaterGaugeChart::watch);
  QObject::connect(
    model, &pqServerManagerModel::preSourceRemoved, this, &pqShallowWaterGaugeChart::forget);
}

void pqShallowWaterGaugeChart::watch(pqPipelineSource* source)
{
  if (source && isShallowWater(source))
    QObject::connect(source,
      QOverload<pqPipelineSource*>::of(&pqPipelineSource::dataUpdated),
      this,
      &pqShallowWaterGaugeChart::updated);
}

void pqShallowWaterGaugeChart::forget(pqPipelineSource* source)
{
  this->Charted.remove(source);
}

void pqShallowWaterGaugeChart::updated(pqPipelineSource* source)
{
  if (this->Charted.contains(source) || source->getNumberOfOutputPorts() <= kGaugesPort)
    return;
  pqOutputPort* port = source->getOutputPort(kGaugesPort);
  vtkPVDataInformation* info = port ? port->getDataInformation() : nullptr;
  // (Time, then three columns a gauge)
  if (!info || !info->GetRowDataInformation() ||
      info->GetRowDataInformation()->GetNumberOfArrays() < 2)
    return;
  this->Charted.insert(source);
  if (!port->getViews().isEmpty())
    return;
  pqObjectBuilder* builder = pqApplicationCore::instance()->getObjectBuilder();
  pqView* created = builder->createView("XYChartView", source->getServer());
  auto* view = created ? vtkSMViewProxy::SafeDownCast(created->getProxy()) : nullptr;
  if (!view)
    return;
  builder->addToLayout(created);
  vtkNew<vtkSMParaViewPipelineControllerWithRendering> controller;
  vtkSMProxy* chart =
    controller->Show(vtkSMSourceProxy::SafeDownCast(source->getProxy()), kGaugesPort, view);
  if (chart)
  {
    vtkSMPropertyHelper(chart, "UseIndexForXAxis").Set(0);
    vtkSMPropertyHelper(chart, "XArrayName").Set("Time");
    chart->UpdateVTKObjects();
  }
  view->StillRender();
}
