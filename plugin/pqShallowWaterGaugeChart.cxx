#include "pqShallowWaterGaugeChart.h"

#include "pqShallowWaterAbort.h"
#include "pqShallowWaterGaugeMarkers.h"
#include "pqShallowWaterProxies.h"

#include <pqActiveObjects.h>
#include <pqAnimationScene.h>
#include <pqApplicationCore.h>
#include <pqDataRepresentation.h>
#include <pqObjectBuilder.h>
#include <pqOutputPort.h>
#include <pqPipelineSource.h>
#include <pqServer.h>
#include <pqServerManagerModel.h>
#include <pqView.h>
#include <vtkNew.h>
#include <vtkPVDataInformation.h>
#include <vtkPVArrayInformation.h>
#include <vtkPVDataSetAttributesInformation.h>
#include <vtkSMAnimationScene.h>
#include <vtkSMParaViewPipelineControllerWithRendering.h>
#include <vtkSMPropertyHelper.h>
#include <vtkSMSourceProxy.h>
#include <vtkSMViewLayoutProxy.h>
#include <vtkSMViewProxy.h>

#include <QPointer>
#include <QTimer>
#include <QVariant>

#include <algorithm>
#include <array>
#include <functional>
#include <string>

namespace
{
constexpr int kGaugesPort = 1;
// How long a chart that cannot open during the scene's update waits before it tries again (the
// scene may run Qt's events within its updates, where a zero timer would only come back).
constexpr int kLaterMs = 250;

// ParaView 5.11 says whether its animation scene is in a tick (updating and rendering the views)
// only to itself: the flag is protected.
struct SceneTick : vtkSMAnimationScene
{
  static bool vtkSMAnimationScene::*flag() { return &SceneTick::InTick; }
};

// Runs work from the event loop once no pipeline update is under way
// (pqShallowWaterGateRunsEvents), while context lives.
void later(QObject* context, std::function<void()> work, int ms = 0)
{
  QTimer::singleShot(ms,
    context,
    [context, work]
    {
      if (pqShallowWaterGateRunsEvents())
        later(context, work, kLaterMs);
      else
        work();
    });
}

bool sceneUpdatingViews()
{
  for (pqAnimationScene* scene :
    pqApplicationCore::instance()->getServerManagerModel()->findItems<pqAnimationScene*>())
  {
    auto* object = vtkSMAnimationScene::SafeDownCast(scene->getProxy()->GetClientSideObject());
    if (object && object->*SceneTick::flag())
      return true;
  }
  return false;
}

// The hydrographs on their own axis: depths shown, surfaces (tens of metres above them) and
// speeds a click away in the chart's series list; each gauge's depth in its colour.
void showDepths(vtkSMProxy* chart, vtkPVDataSetAttributesInformation* columns)
{
  // (the properties hold a series' name, then 1 to show it or 0; or its red, green, blue)
  vtkSMPropertyHelper shown(chart, "SeriesVisibility");
  vtkSMPropertyHelper colour(chart, "SeriesColor");
  const auto columnCount = static_cast<unsigned int>(columns->GetNumberOfArrays());
  shown.SetNumberOfElements(2 * columnCount);
  colour.SetNumberOfElements(4 * columnCount);
  int depths = 0;
  for (unsigned int c = 0; c < columnCount; ++c)
  {
    const std::string name = columns->GetArrayInformation(static_cast<int>(c))->GetName();
    const bool depth = name.size() >= 6 && name.compare(name.size() - 6, 6, " Depth") == 0;
    shown.Set(2 * c, name.c_str());
    shown.Set(2 * c + 1, depth ? "1" : "0");
    static const std::array<double, 3> black{ 0, 0, 0 };
    const std::array<double, 3>& rgb = depth ? gaugeColour(depths++) : black;
    colour.Set(4 * c, name.c_str());
    for (unsigned int k = 0; k < 3; ++k)
      colour.Set(4 * c + 1 + k, std::to_string(rgb[k]).c_str());
  }
}

// What a chart whose lines are held back says, so that an empty chart does not look broken.
constexpr const char* kWaitingTitle = "Hydrographs: drawn once the run has stepped";

// Shows or clears that title; a title of the user's own stays.
void sayWaiting(pqView* chart, bool waiting)
{
  vtkSMProxy* view = chart->getProxy();
  vtkSMPropertyHelper title(view, "ChartTitle");
  const std::string now = title.GetAsString() ? title.GetAsString() : "";
  const bool say = waiting && now.empty(), clear = !waiting && now == kWaitingTitle;
  if (!say && !clear)
    return;
  title.Set(say ? kWaitingTitle : "");
  view->UpdateVTKObjects();
}

// The largest depth of any gauge in the table (0 where every gauge is dry or the table is
// empty), from its columns' ranges.
double largestGaugeDepth(vtkPVDataSetAttributesInformation* columns)
{
  double largest = 0;
  for (int c = 0; columns && c < columns->GetNumberOfArrays(); ++c)
  {
    vtkPVArrayInformation* column = columns->GetArrayInformation(c);
    const std::string name = column->GetName() ? column->GetName() : "";
    if (name.size() >= 6 && name.compare(name.size() - 6, 6, " Depth") == 0)
      largest = std::max(largest, column->GetComponentRange(0)[1]);
  }
  return largest;
}

// While no gauge has water (or no line is drawn yet), the depth axis reads 0 to 1 m and the time
// axis the run's span: VTK's own range of a flat line is +-1e-7, and of an empty chart 0 to 6.5.
// Once water arrives, the axes are the chart's own again; ranges the user set are left alone.
void fitAxes(pqView* chart, bool dry, double endTime)
{
  vtkSMProxy* view = chart->getProxy();
  const bool ours = chart->property("swe_axes").toBool();
  if (!dry && !ours)
    return;
  if (dry && !ours && vtkSMPropertyHelper(view, "LeftAxisUseCustomRange").GetAsInt() != 0)
    return;
  vtkSMPropertyHelper(view, "LeftAxisUseCustomRange").Set(dry ? 1 : 0);
  vtkSMPropertyHelper(view, "BottomAxisUseCustomRange").Set(dry && endTime > 0 ? 1 : 0);
  if (dry)
  {
    vtkSMPropertyHelper(view, "LeftAxisRangeMinimum").Set(0.0);
    vtkSMPropertyHelper(view, "LeftAxisRangeMaximum").Set(1.0);
    vtkSMPropertyHelper(view, "BottomAxisRangeMinimum").Set(0.0);
    vtkSMPropertyHelper(view, "BottomAxisRangeMaximum").Set(endTime);
  }
  chart->setProperty("swe_axes", dry);
  view->UpdateVTKObjects();
}

// The render view showing the source's map, or, on the first Apply (which updates the source
// before showing it), the active render view; null if neither.
pqView* mapOf(pqPipelineSource* source)
{
  QList<pqView*> views = source->getOutputPort(0)->getViews();
  views.append(pqActiveObjects::instance().activeView());
  for (pqView* view : views)
    if (view && view->getViewType() == QString("RenderView"))
      return view;
  return nullptr;
}

// The chart goes under the map, a third of its height, so that the map keeps its width (a
// flood plain is wider than tall), and the map stays the active view; else where ParaView puts
// a new view.
void placeUnderMap(pqView* map, pqView* chart)
{
  vtkSMViewProxy* mapProxy = map ? map->getViewProxy() : nullptr;
  vtkSMViewLayoutProxy* layout = mapProxy ? vtkSMViewLayoutProxy::FindLayout(mapProxy) : nullptr;
  const int top = layout ? layout->SplitVertical(layout->GetViewLocation(mapProxy), 0.68) : -1;
  if (top < 0 || !layout->AssignView(top + 1, chart->getViewProxy()))
    pqApplicationCore::instance()->getObjectBuilder()->addToLayout(chart);
  else
  {
    // (fitted again to its shorter view, once the layout has given it its new size: the chart
    // opens with the run's second gauge sample, just after the map was first fitted)
    later(map, [map] { map->resetDisplay(); });
    pqActiveObjects::instance().setActiveView(map);
  }
}
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
  QObject::connect(
    model, &pqServerManagerModel::viewAdded, this, &pqShallowWaterGaugeChart::watchView);
  for (pqView* view : model->findItems<pqView*>())
    this->watchView(view);
}

void pqShallowWaterGaugeChart::watchView(pqView* view)
{
  QObject::connect(
    view, &pqView::beginRender, this, [this, view] { this->Rendering.insert(view); });
  QObject::connect(view, &pqView::endRender, this, [this, view] { this->Rendering.remove(view); });
  QObject::connect(view, &QObject::destroyed, this, [this, view] { this->Rendering.remove(view); });
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
  this->close(source);
}

void pqShallowWaterGaugeChart::close(pqPipelineSource* source)
{
  this->Charted.remove(source);
  this->GaugeCounts.remove(source);
  // The chart this opened goes (once the source's line has left it, when the source goes),
  // unless the user put something else in it.
  QPointer<pqView> chart = this->Opened.take(source);
  QPointer<pqPipelineSource> from(source);
  later(this,
    [this, chart, from]
    {
      // (gone, or charted again meanwhile: new gauges before the event loop ran)
      if (!chart || (from && this->Charted.contains(from)))
        return;
      for (pqRepresentation* shown : chart->getRepresentations())
      {
        auto* line = qobject_cast<pqDataRepresentation*>(shown);
        if (!from || !line || line->getInput() != from)
          return;
      }
      vtkSMViewProxy* proxy = chart->getViewProxy();
      vtkSMViewLayoutProxy* layout = vtkSMViewLayoutProxy::FindLayout(proxy);
      const int cell = layout ? layout->GetViewLocation(proxy) : -1;
      pqApplicationCore::instance()->getObjectBuilder()->destroy(chart);
      if (layout && cell >= 0)
        layout->Collapse(cell);
    });
}

void pqShallowWaterGaugeChart::updated(pqPipelineSource* source)
{
  if (source->getNumberOfOutputPorts() <= kGaugesPort)
    return;
  pqOutputPort* port = source->getOutputPort(kGaugesPort);
  vtkPVDataInformation* info = port ? port->getDataInformation() : nullptr;
  // (Time, then three columns a gauge)
  if (!info || !info->GetRowDataInformation())
    return;
  if (info->GetRowDataInformation()->GetNumberOfArrays() < 2)
  {
    // Its gauges all removed: their chart and markers go, and come back with new gauges.
    if (this->Charted.contains(source))
    {
      this->close(source);
      hideGaugeMarkers(source);
    }
    return;
  }
  // The chart opens with the run's first update that has gauges (Apply's, outside the animation
  // scene's updates, where a new view would crash ParaView), its line held back until it has
  // two samples.
  if (!this->Charted.contains(source))
  {
    this->Charted.insert(source);
    if (port->getViews().isEmpty())
      this->open(source);
  }
  this->followGaugeCount(source, port);
  this->holdBack(port);
}

void pqShallowWaterGaugeChart::followGaugeCount(pqPipelineSource* source, pqOutputPort* port)
{
  // A gauge added or removed once the chart is open: its lines and markers are set up as the
  // chart's first ones were (depths shown, each in its marker's colour, the legend naming
  // every gauge), not left to ParaView's defaults (every column on the depth axis).
  vtkPVDataSetAttributesInformation* columns = port->getDataInformation()->GetRowDataInformation();
  const int gauges = (columns->GetNumberOfArrays() - 1) / 3; // (Time, then three a gauge)
  const int before = this->GaugeCounts.value(source, gauges);
  this->GaugeCounts[source] = gauges;
  if (gauges == before)
    return;
  for (pqView* chart : port->getViews())
  {
    pqDataRepresentation* lines = port->getRepresentation(chart);
    if (!lines || chart->getViewType() != QString("XYChartView"))
      continue;
    showDepths(lines->getProxy(), columns);
    lines->getProxy()->UpdateVTKObjects();
  }
  nameGaugeMarkers(source, gauges);
}

void pqShallowWaterGaugeChart::holdBack(pqOutputPort* port)
{
  // A line of one sample (the table at t = 0) is not drawn: VTK's chart would say "Attempted to
  // paint a line with <2 points" for each series at every render. A chart this hid shows again
  // with the second sample.
  vtkPVDataInformation* info = port->getDataInformation();
  const bool drawable = info->GetNumberOfRows() >= 2;
  const bool dry = !drawable || largestGaugeDepth(info->GetRowDataInformation()) <= 0;
  const double endTime =
    vtkSMPropertyHelper(port->getSource()->getProxy(), "EndTime").GetAsDouble();
  for (pqView* chart : port->getViews())
  {
    pqDataRepresentation* representation = port->getRepresentation(chart);
    if (!representation || chart->getViewType() != QString("XYChartView"))
      continue;
    fitAxes(chart, dry, endTime);
    if (!drawable && representation->isVisible())
    {
      representation->setVisible(false);
      sayWaiting(chart, true);
      this->HeldBack.insert(representation);
      QObject::connect(representation,
        &QObject::destroyed,
        this,
        [this, representation] { this->HeldBack.remove(representation); });
    }
    else if (drawable && this->HeldBack.remove(representation))
    {
      representation->setVisible(true);
      sayWaiting(chart, false);
    }
  }
}

void pqShallowWaterGaugeChart::open(pqPipelineSource* source)
{
  // A view added while the animation scene updates its views (this update's, during Play or a
  // time change) would join the list the scene is going through, and ParaView 5.11 crashes; the
  // markers shown in a render view while it renders (an Apply that added gauges) are not in its
  // data delivery, which says "Invalid arguments": the chart opens once they are done.
  if (sceneUpdatingViews() || !this->Rendering.isEmpty() || pqShallowWaterGateRunsEvents())
  {
    QPointer<pqPipelineSource> later(source);
    QTimer::singleShot(kLaterMs,
      this,
      [this, later]
      {
        if (later)
          this->open(later);
      });
    return;
  }
  pqOutputPort* port = source->getOutputPort(kGaugesPort);
  vtkPVDataInformation* info = port->getDataInformation();
  if (!port->getViews().isEmpty() || !info->GetRowDataInformation())
    return;
  pqView* map = mapOf(source); // (before the chart, which becomes the active view)
  pqObjectBuilder* builder = pqApplicationCore::instance()->getObjectBuilder();
  pqView* created = builder->createView("XYChartView", source->getServer());
  auto* view = created ? vtkSMViewProxy::SafeDownCast(created->getProxy()) : nullptr;
  if (!view)
    return;
  placeUnderMap(map, created);
  this->Opened.insert(source, created);
  vtkNew<vtkSMParaViewPipelineControllerWithRendering> controller;
  vtkSMProxy* chart =
    controller->Show(vtkSMSourceProxy::SafeDownCast(source->getProxy()), kGaugesPort, view);
  if (chart)
  {
    vtkSMPropertyHelper(chart, "UseIndexForXAxis").Set(0);
    vtkSMPropertyHelper(chart, "XArrayName").Set("Time");
    showDepths(chart, info->GetRowDataInformation());
    chart->UpdateVTKObjects();
  }
  vtkSMPropertyHelper(view, "LeftAxisTitle").Set("Depth (m)");
  vtkSMPropertyHelper(view, "BottomAxisTitle").Set("Time (s)");
  view->UpdateVTKObjects();
  this->holdBack(port);
  view->StillRender();
  // (Time, then three columns a gauge)
  const int gauges = (info->GetRowDataInformation()->GetNumberOfArrays() - 1) / 3;
  if (!map)
    return;
  // In the middle of the map's own update (the GUI's Apply updates the views, then renders
  // them), markers shown now would miss that update, which then counts as done, and its render
  // would say "Invalid arguments": they are shown once the update and its render are over.
  if (map->getViewProxy()->GetNeedsUpdate() || pqShallowWaterGateRunsEvents())
  {
    QPointer<pqPipelineSource> from(source);
    QPointer<pqView> on(map);
    later(this,
      [from, on, gauges]
      {
        if (!from || !on)
          return;
        showGaugeMarkers(from, on, gauges);
        on->render();
      });
    return;
  }
  showGaugeMarkers(source, map, gauges);
  map->render();
}
