#include "pqShallowWaterMonitor.h"

#include "pqShallowWaterNumber.h"
#include "pqShallowWaterProxies.h"
#include "ui_pqShallowWaterMonitor.h"

#include <pqActiveObjects.h>
#include <pqAnimationScene.h>
#include <pqApplicationCore.h>
#include <pqOutputPort.h>
#include <pqProgressManager.h>
#include <pqServerManagerModel.h>
#include <vtkPVArrayInformation.h>
#include <vtkPVDataInformation.h>
#include <vtkPVDataSetAttributesInformation.h>
#include <vtkSMEnumerationDomain.h>
#include <vtkSMProperty.h>
#include <vtkSMPropertyHelper.h>
#include <vtkSMProxy.h>

#include <QFile>
#include <QStringList>
#include <QTextStream>

#include <cmath>
#include <limits>

namespace
{
constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();

// A number of the frame's field data (its data information's range), or NaN without it.
double fieldValue(vtkPVDataInformation* info, const char* name)
{
  vtkPVDataSetAttributesInformation* field = info ? info->GetFieldDataInformation() : nullptr;
  vtkPVArrayInformation* array = field ? field->GetArrayInformation(name) : nullptr;
  return array && array->GetNumberOfComponents() > 0 ? array->GetComponentRange(0)[0] : kUnknown;
}

QString fieldText(vtkPVDataInformation* info, const char* name)
{
  vtkPVDataSetAttributesInformation* field = info ? info->GetFieldDataInformation() : nullptr;
  vtkPVArrayInformation* array = field ? field->GetArrayInformation(name) : nullptr;
  return array && array->GetNumberOfStringValues() > 0 ? QString(array->GetStringValue(0))
                                                       : QString("-");
}

// The text an enumeration property shows in the Properties panel.
QString enumerationText(vtkSMProxy* proxy, const char* name)
{
  vtkSMProperty* property = proxy->GetProperty(name);
  auto* domain =
    property ? vtkSMEnumerationDomain::SafeDownCast(property->FindDomain("vtkSMEnumerationDomain"))
             : nullptr;
  const char* text =
    domain ? domain->GetEntryTextForValue(vtkSMPropertyHelper(property).GetAsInt()) : nullptr;
  return text ? QString(text) : QString("-");
}

QString bytes(double value)
{
  if (!std::isfinite(value))
    return "-";
  return value >= 1 << 30 ? QString("%1 GiB").arg(value / (1 << 30), 0, 'f', 2)
                          : QString("%1 MiB").arg(value / (1 << 20), 0, 'f', 1);
}

pqAnimationScene* animationScene()
{
  const QList<pqAnimationScene*> scenes =
    pqApplicationCore::instance()->getServerManagerModel()->findItems<pqAnimationScene*>();
  return scenes.isEmpty() ? nullptr : scenes.front();
}
} // namespace

pqShallowWaterMonitor::pqShallowWaterMonitor(QWidget* parent, Qt::WindowFlags flags)
  : QDockWidget(parent, flags)
  , Form(new Ui::pqShallowWaterMonitor)
{
  this->setWindowTitle(tr("Shallow Water Monitor"));
  auto* body = new QWidget(this);
  body->setObjectName("Monitor"); // (the widgets' path for ParaView's XML test playback)
  this->Form->setupUi(body);
  this->setWidget(body);
  // The readouts wrap within the dock's width rather than widen it: a dock that changed width
  // with its text moved the views beside it whenever a run started.
  QList<QWidget*> wrapping{ this->Form->Source, this->Form->Progress };
  for (QLabel* readout : this->readouts())
    wrapping.append(readout);
  for (QWidget* widget : wrapping)
    widget->setSizePolicy(QSizePolicy::Ignored, widget->sizePolicy().verticalPolicy());
  // (wide enough for a readout on a line or two)
  constexpr int kCharacters = 56;
  body->setMinimumWidth(kCharacters * body->fontMetrics().averageCharWidth());
  QObject::connect(&pqActiveObjects::instance(),
    &pqActiveObjects::sourceChanged,
    this,
    &pqShallowWaterMonitor::follow);
  QObject::connect(pqApplicationCore::instance()->getServerManagerModel(),
    &pqServerManagerModel::preSourceRemoved,
    this,
    &pqShallowWaterMonitor::forget);
  QObject::connect(this->Form->ChartChoice,
    QOverload<int>::of(&QComboBox::currentIndexChanged),
    this,
    &pqShallowWaterMonitor::drawChart);
  QObject::connect(
    this->Form->RunToEnd, &QPushButton::clicked, this, &pqShallowWaterMonitor::runToEnd);
  QObject::connect(this->Form->Pause, &QPushButton::clicked, this, &pqShallowWaterMonitor::pause);
  QObject::connect(
    this->Form->Restart, &QPushButton::clicked, this, &pqShallowWaterMonitor::restart);
  // An aborted update brings no new data (no dataUpdated): the end of any update's progress
  // refreshes too, so that the abort shows.
  QObject::connect(pqApplicationCore::instance()->getProgressManager(),
    &pqProgressManager::progressEndEvent,
    this,
    &pqShallowWaterMonitor::refresh);
  this->follow(pqActiveObjects::instance().activeSource());
}

pqShallowWaterMonitor::~pqShallowWaterMonitor() = default;

void pqShallowWaterMonitor::follow(pqPipelineSource* source)
{
  // Another kind of item selected: keep showing the run followed so far.
  if (!isShallowWater(source) || source == this->Followed)
    return;
  if (this->Followed)
    QObject::disconnect(this->Followed, nullptr, this, nullptr);
  this->Followed = source;
  this->clearReadouts(tr("no frame yet"));
  QObject::connect(source,
    QOverload<pqPipelineSource*>::of(&pqPipelineSource::dataUpdated),
    this,
    &pqShallowWaterMonitor::refresh);
  this->refresh();
}

void pqShallowWaterMonitor::forget(pqPipelineSource* source)
{
  this->History.remove(source);
  this->Settings.remove(source);
  this->Restarted.remove(source);
  this->ChartUpTo.remove(source);
  if (source == this->Followed)
  {
    this->Followed = nullptr;
    this->Form->Source->setText(tr("Select a Shallow Water source or solver."));
    this->clearReadouts(tr("no run followed"));
  }
}

void pqShallowWaterMonitor::refresh()
{
  pqPipelineSource* source = this->Followed;
  if (!source)
    return;
  // The filter says why its last update gave no frame of the time asked for: aborted (the frame
  // is then where the run stopped) or its error (the port's data information may then still be
  // the frame before's).
  vtkSMProxy* proxy = source->getProxy();
  proxy->UpdatePropertyInformation(proxy->GetProperty("RunStatus"));
  const QString status = vtkSMPropertyHelper(proxy, "RunStatus").GetAsString();
  const bool aborted = status.startsWith("aborted");
  vtkPVDataInformation* info = source->getOutputPort(0)->getDataInformation();
  const double time = fieldValue(info, "SimulationTime");
  if ((!status.isEmpty() && !aborted) || !std::isfinite(time))
  {
    // (not applied yet, or its run failed: no readout of another frame or proxy stays)
    this->Form->Source->setText(QString("<b>%1</b>%2")
                                  .arg(source->getSMName().toHtmlEscaped())
                                  .arg(status.isEmpty() ? "" : ": " + status.toHtmlEscaped()));
    this->clearReadouts(status.isEmpty() ? tr("no frame yet: Apply") : tr("failed: see above"));
    this->log(QString("source=%1\tcleared=no frame\tstatus=%2").arg(source->getSMName(), status));
    return;
  }
  const Sample sample = this->record(source, info, time);
  // (the note stays while the chart holds the new run's first frame alone)
  if (this->History[source].size() > 1)
    this->Restarted[source] = false;
  this->Form->Source->setText(
    QString("<b>%1</b>%2%3")
      .arg(source->getSMName().toHtmlEscaped())
      .arg(aborted ? ": " + status.toHtmlEscaped() : "")
      .arg(this->Restarted.value(source) ? tr(" (run started again: a new chart)") : ""));
  if (aborted)
    this->log(QString("source=%1\taborted=%2").arg(source->getSMName(), status));
  this->showReadouts(source, info, time, sample);
}

pqShallowWaterMonitor::Sample pqShallowWaterMonitor::record(pqPipelineSource* source,
  vtkPVDataInformation* info,
  double time)
{
  Sample sample;
  sample.steps = fieldValue(info, "Steps");
  sample.stepSeconds = fieldValue(info, "StepSeconds");
  const double stepsTaken = fieldValue(info, "StepsTaken");
  const double stored = fieldValue(info, "StoredVolume");
  sample.water = std::isfinite(stored) ? stored : fieldValue(info, "Mass");
  sample.largestDepth = fieldValue(info, "LargestDepth");
  sample.floodedArea = fieldValue(info, "FloodedArea");
  QMap<double, Sample>& history = this->History[source];
  // A frame of another run (other settings, or fewer steps than a frame before it or another
  // count at its own time) starts the history afresh: one chart never mixes two runs.
  const QString settings = fieldText(info, "RunSettings");
  auto next = history.lowerBound(time);
  const bool otherRun =
    (this->Settings.contains(source) && this->Settings[source] != settings) ||
    (next != history.begin() && std::prev(next).value().steps > sample.steps) ||
    (next != history.end() && next.key() == time && next.value().steps != sample.steps);
  this->Settings[source] = settings;
  if (otherRun)
  {
    history.clear();
    this->Restarted[source] = true;
    next = history.end();
  }
  // Steps a second: the steps this frame's update took over the seconds it spent stepping. A
  // frame served from a checkpoint took none and keeps the rate measured when it was made.
  const bool seenBefore =
    next != history.end() && next.key() == time && next.value().steps == sample.steps;
  if (stepsTaken > 0 && sample.stepSeconds > 0)
    sample.stepsPerSecond = stepsTaken / sample.stepSeconds;
  else if (seenBefore)
    sample.stepsPerSecond = next.value().stepsPerSecond;
  history.insert(time, sample);
  this->ChartUpTo[source] = time;
  return sample;
}

void pqShallowWaterMonitor::clearReadouts(const QString& why)
{
  this->Form->Progress->setValue(0);
  this->Form->Progress->setFormat(why);
  // (no chart of another run or of frames before a failure beside a failed run's readouts)
  this->Form->Chart->setSeries({}, QString(), 0, why);
  for (QLabel* readout : this->readouts())
    readout->setText("-");
}

QList<QLabel*> pqShallowWaterMonitor::readouts() const
{
  return { this->Form->Device,
    this->Form->Numerics,
    this->Form->Grid,
    this->Form->Steps,
    this->Form->Rate,
    this->Form->TimeStep,
    this->Form->Water,
    this->Form->Memory };
}

void pqShallowWaterMonitor::showReadouts(pqPipelineSource* source,
  vtkPVDataInformation* info,
  double time,
  const Sample& sample)
{
  vtkSMProxy* proxy = source->getProxy();
  const double endTime = vtkSMPropertyHelper(proxy, "EndTime").GetAsDouble();
  this->Form->Progress->setValue(
    endTime > 0 ? static_cast<int>(std::lround(1000 * std::min(1.0, time / endTime))) : 0);
  this->Form->Progress->setFormat(
    tr("t = %1 s of %2 s").arg(plainNumber(time, 5)).arg(plainNumber(endTime, 5)));
  this->Form->Device->setText(fieldText(info, "Device"));
  // (the scheme's name without the panel's description in brackets: the dock is narrow)
  this->Form->Numerics->setText(
    QString("%1, %2%3")
      .arg(enumerationText(proxy, "Scheme").section(" (", 0, 0))
      .arg(enumerationText(proxy, "Precision"))
      .arg(fieldText(info, "DryLand") == "skipped" ? tr(", dry land skipped") : QString()));
  const int* extent = info->GetExtent();
  const int nx = extent[1] - extent[0], ny = extent[3] - extent[2];
  const double cells = static_cast<double>(nx) * ny;
  const double dx = (info->GetBounds()[1] - info->GetBounds()[0]) / std::max(1, nx);
  this->Form->Grid->setText(tr("%1 x %2 cells of %3 m").arg(nx).arg(ny).arg(plainNumber(dx)));
  this->Form->Steps->setText(plainNumber(sample.steps, 12));
  this->Form->Rate->setText(sample.stepsPerSecond > 0
                              ? tr("<nobr>%1 steps/s,</nobr> <nobr>%2 Mcell/s</nobr>")
                                  .arg(plainNumber(sample.stepsPerSecond))
                                  .arg(plainNumber(sample.stepsPerSecond * cells / 1e6))
                              : QString("-"));
  this->showTimeStep(proxy, info, time, dx);
  const double stored = fieldValue(info, "StoredVolume");
  this->Form->Water->setText(std::isfinite(stored)
                               ? tr("%1 m³ stored, balance error <nobr>%2 m³</nobr>")
                                   .arg(plainNumber(stored, 6))
                                   .arg(plainNumber(fieldValue(info, "BalanceError"), 3))
                               : tr("%1 m³ (Water Balance off)").arg(plainNumber(sample.water, 6)));
  this->Form->Memory->setText(bytes(fieldValue(info, "DeviceMemory")));
  this->drawChart();
  this->log(QString("source=%1\ttime=%2\tend=%3\tsteps=%4\tsteps_per_second=%5\twater=%6\t"
                    "memory=%7\tdevice=%8\tmean_dt=%9\trestarted=%10")
              .arg(source->getSMName())
              .arg(time, 0, 'g', 17)
              .arg(endTime, 0, 'g', 17)
              .arg(sample.steps, 0, 'g', 17)
              .arg(sample.stepsPerSecond, 0, 'g', 6)
              .arg(sample.water, 0, 'g', 17)
              .arg(fieldValue(info, "DeviceMemory"), 0, 'g', 17)
              .arg(fieldText(info, "Device"))
              .arg(sample.steps > 0 ? time / sample.steps : kUnknown, 0, 'g', 6)
              .arg(this->Restarted.value(source) ? 1 : 0));
}

void pqShallowWaterMonitor::showTimeStep(vtkSMProxy* proxy,
  vtkPVDataInformation* info,
  double time,
  double dx)
{
  // The Courant number: the adaptive step's aim; with a fixed step, what the state's largest
  // wave speed makes of it (dt = C dx / s, and / 2 s for the second-order schemes: NUMERICS.md).
  const double fixedDt = vtkSMPropertyHelper(proxy, "FixedTimeStep").GetAsDouble();
  const double waveSpeed = fieldValue(info, "StepWaveSpeed");
  const double perSpeed = vtkSMPropertyHelper(proxy, "Scheme").GetAsInt() == 0 ? 1 : 2;
  const double courant = fixedDt > 0 ? fixedDt * waveSpeed / dx * perSpeed
                                     : vtkSMPropertyHelper(proxy, "CourantNumber").GetAsDouble();
  const double steps = fieldValue(info, "Steps");
  const QString mean =
    steps > 0 ? tr("%1 s on average since t = 0").arg(plainNumber(time / steps)) : QString();
  if (fixedDt > 0)
  {
    this->Form->TimeStep->setText(
      tr("%1 s (fixed; Courant number %2)").arg(plainNumber(fixedDt)).arg(plainNumber(courant, 3)));
    return;
  }
  // (the step the frame's state chooses next, from its wave speed; none while nothing moves)
  QStringList parts;
  if (waveSpeed > 0)
    parts << tr("%1 s next").arg(plainNumber(courant * dx / (perSpeed * waveSpeed)));
  if (!mean.isEmpty())
    parts << mean;
  this->Form->TimeStep->setText(
    parts.isEmpty() ? QString("-")
                    : tr("%1 (Courant number %2)").arg(parts.join(", ")).arg(plainNumber(courant)));
}

void pqShallowWaterMonitor::drawChart()
{
  static const char* const units[] = { "m³", "m", "m²", "steps/s" };
  const int choice = this->Form->ChartChoice->currentIndex();
  QVector<QPointF> points;
  // The run up to the frame shown: after Restart or a step back in time, the frames beyond it
  // are kept (they come back bit for bit) but not drawn.
  const QMap<double, Sample> history = this->History.value(this->Followed);
  const double upTo = this->ChartUpTo.value(this->Followed, kUnknown);
  for (auto it = history.cbegin(); it != history.cend() && !(it.key() > upTo); ++it)
  {
    const Sample& s = it.value();
    const double value = choice == 0   ? s.water
                         : choice == 1 ? s.largestDepth
                         : choice == 2 ? s.floodedArea
                                       : s.stepsPerSecond;
    if (std::isfinite(value) && (choice != 3 || value > 0))
      points.push_back(QPointF(it.key(), value));
  }
  // (the stored volume on a span of at least 0.1 % of it: fp32's round-off of a constant volume,
  // about 1e-6 of it, drawn full height would look like a loss)
  this->Form->Chart->setSeries(
    points, units[std::max(0, std::min(choice, 3))], choice == 0 ? 1e-3 : 0);
}

void pqShallowWaterMonitor::runToEnd()
{
  if (pqAnimationScene* scene = animationScene())
    scene->play();
}

void pqShallowWaterMonitor::pause()
{
  if (pqAnimationScene* scene = animationScene())
    scene->pause();
}

void pqShallowWaterMonitor::restart()
{
  if (!this->Followed)
    return;
  this->Followed->getProxy()->InvokeCommand("Restart");
  this->History.remove(this->Followed);
  this->Restarted[this->Followed] = true;
  if (pqAnimationScene* scene = animationScene())
    scene->setAnimationTime(0.0);
}

void pqShallowWaterMonitor::log(const QString& line) const
{
  const QString path = qEnvironmentVariable("SWE_MONITOR_LOG");
  if (path.isEmpty())
    return;
  QFile file(path);
  if (file.open(QIODevice::Append | QIODevice::Text))
    QTextStream(&file) << line << "\n";
}
