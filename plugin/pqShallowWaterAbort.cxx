#include "pqShallowWaterAbort.h"

#include "pqAnimationScene.h"
#include "pqApplicationCore.h"
#include "pqCoreConfiguration.h"
#include "pqCoreUtilities.h"
#include "pqPipelineSource.h"
#include "pqProgressManager.h"
#include "pqProgressWidget.h"
#include "pqServer.h"
#include "pqQVTKWidgetBase.h"
#include "pqServerManagerModel.h"
#include "pqView.h"
#include "vtkAlgorithm.h"
#include "vtkCommand.h"
#include "vtkSMSourceProxy.h"
#include "vtkWeakPointer.h"

#include <QCoreApplication>
#include <QEvent>
#include <QPaintEvent>
#include <QWindow>
#include <QPointer>
#include <QThread>
#include <QTimer>
#include <QAbstractButton>
#include <QAction>
#include <QToolButton>

#include <functional>

// The observers on one of our algorithms.
struct pqShallowWaterAbort::Observed
{
  vtkWeakPointer<vtkAlgorithm> Algorithm;
  unsigned long Tags[3] = { 0, 0, 0 };
};

namespace
{
bool GateRunsEvents = false; // (one gate: pqShallowWaterGateRunsEvents)

// Whether a click on receiver asks the animation to pause: the Shallow Water Monitor's Pause, or
// ParaView's Play button, which reads Pause while the animation plays.
bool PausesPlay(QObject* receiver)
{
  auto* button = qobject_cast<QAbstractButton*>(receiver);
  if (!button)
    return false;
  if (auto* tool = qobject_cast<QToolButton*>(button))
    return tool->defaultAction() && tool->defaultAction()->objectName() == "actionVCRPlay";
  return button->objectName() == "Pause" && button->parentWidget() &&
         button->parentWidget()->objectName() == "Monitor";
}
} // namespace

// Drops, while events are processed in the middle of a pipeline update, every event that
// could act on the pipeline or the views; a click on the abort button gets through.
class pqShallowWaterAbort::Gate : public QObject
{
public:
  QPointer<QWidget> Button;
  // Called for a click on a control that pauses the animation (PausesPlay).
  std::function<void()> Pause;
  // The views' OpenGL windows (or widgets) whose paints were held.
  QList<QPointer<QObject>> Held;

  void hold(QObject* receiver)
  {
    if (!this->Held.contains(receiver))
      this->Held.append(receiver);
  }

  bool eventFilter(QObject* receiver, QEvent* event) override
  {
    switch (event->type())
    {
      // Mouse events reach a widget through its window (a QWidgetWindow), which passes them on;
      // of the widgets only the abort button gets them. Windows of other kinds (a view drawn in
      // a QWindow of its own) get none.
      case QEvent::MouseButtonRelease:
        // (a pause control acts now, after the frame under way; the click goes no further)
        if (PausesPlay(receiver))
        {
          this->Pause();
          return true;
        }
        return receiver->isWindowType() ? !receiver->inherits("QWidgetWindow")
                                        : receiver != this->Button;
      case QEvent::MouseButtonPress:
      case QEvent::MouseButtonDblClick:
      case QEvent::MouseMove:
      case QEvent::Enter:
      case QEvent::Leave:
      case QEvent::HoverEnter:
      case QEvent::HoverLeave:
      case QEvent::HoverMove:
        return receiver->isWindowType() ? !receiver->inherits("QWidgetWindow")
                                        : receiver != this->Button;
      // No other input, shortcuts or closing.
      case QEvent::KeyPress:
      case QEvent::KeyRelease:
      case QEvent::ShortcutOverride:
      case QEvent::Shortcut:
      case QEvent::Wheel:
      case QEvent::ContextMenu:
      case QEvent::DragEnter:
      case QEvent::DragMove:
      case QEvent::DragLeave:
      case QEvent::Drop:
      case QEvent::TouchBegin:
      case QEvent::TouchUpdate:
      case QEvent::TouchEnd:
      case QEvent::TouchCancel:
      case QEvent::TabletPress:
      case QEvent::TabletMove:
      case QEvent::TabletRelease:
      case QEvent::NativeGesture:
      case QEvent::Gesture:
      case QEvent::InputMethod:
      case QEvent::NonClientAreaMouseButtonPress:
      case QEvent::NonClientAreaMouseButtonRelease:
      case QEvent::NonClientAreaMouseButtonDblClick:
      case QEvent::NonClientAreaMouseMove:
      case QEvent::Close:
        return true;
      // A view repainted now would render with the pipeline half updated; it repaints after
      // its next render.
      case QEvent::Paint:
      case QEvent::UpdateRequest:
      case QEvent::UpdateLater:
        if (!receiver->inherits("QOpenGLWidget") && !receiver->inherits("QOpenGLWindow"))
          return false;
        this->hold(receiver);
        return true;
      default:
        return false;
    }
  }
};

namespace
{
// Paints a view's OpenGL window (or widget) now, from what its render window last rendered.
void PaintNow(QObject* surface)
{
  if (auto* window = qobject_cast<QWindow*>(surface))
  {
    if (window->isExposed())
    {
      QPaintEvent paint(QRect(QPoint(), window->size()));
      QCoreApplication::sendEvent(window, &paint);
    }
  }
  else if (auto* widget = qobject_cast<QWidget*>(surface))
  {
    widget->repaint();
  }
}

// The surface a view's picture is painted on: the OpenGL window inside its widget (the widget
// where ParaView draws into a widget of its own).
QObject* SurfaceOf(pqView* view)
{
  QWidget* widget = view ? view->widget() : nullptr;
#if PARAVIEW_USING_QVTKOPENGLSTEREOWIDGET
  auto* stereo = qobject_cast<QVTKOpenGLStereoWidget*>(widget);
  if (!stereo && widget)
    stereo = widget->findChild<QVTKOpenGLStereoWidget*>();
  if (stereo && stereo->embeddedOpenGLWindow())
    return stereo->embeddedOpenGLWindow();
#endif
  return widget;
}

// Stops a playing animation after the frame under way.
void PausePlay()
{
  for (pqAnimationScene* scene :
    pqApplicationCore::instance()->getServerManagerModel()->findItems<pqAnimationScene*>())
  {
    scene->pause();
  }
}

pqProgressManager* ProgressManager()
{
  return pqApplicationCore::instance()->getProgressManager();
}

QToolButton* AbortButton()
{
  QWidget* main = pqCoreUtilities::mainWidget();
  auto* progress = main ? main->findChild<pqProgressWidget*>() : nullptr;
  return progress ? progress->abortButton() : nullptr;
}
}

//-----------------------------------------------------------------------------
pqShallowWaterAbort::pqShallowWaterAbort(QObject* parent)
  : QObject(parent)
  , EventGate(new Gate)
{
  this->EventGate->Pause = [] { PausePlay(); };
}

//-----------------------------------------------------------------------------
pqShallowWaterAbort::~pqShallowWaterAbort()
{
  // The application may be gone: only the observers are removed.
  for (pqPipelineSource* source : this->Sources.keys())
  {
    this->unwatch(source);
  }
}

//-----------------------------------------------------------------------------
void pqShallowWaterAbort::startup()
{
  pqApplicationCore* core = pqApplicationCore::instance();
  pqServerManagerModel* model = core->getServerManagerModel();
  QObject::connect(model, &pqServerManagerModel::sourceAdded, this, &pqShallowWaterAbort::watch);
  QObject::connect(model, &pqServerManagerModel::viewAdded, this, &pqShallowWaterAbort::watchView);
  QObject::connect(
    model, &pqServerManagerModel::preSourceRemoved, this, &pqShallowWaterAbort::unwatch);
  QObject::connect(core->getProgressManager(),
    &pqProgressManager::abort,
    this,
    &pqShallowWaterAbort::abortRequested);
  // Sources and views made before the plugin was loaded.
  for (pqPipelineSource* source : model->findItems<pqPipelineSource*>())
  {
    this->watch(source);
  }
  for (pqView* view : model->findItems<pqView*>())
  {
    this->watchView(view);
  }
}

//-----------------------------------------------------------------------------
void pqShallowWaterAbort::shutdown()
{
  for (pqPipelineSource* source : this->Sources.keys())
  {
    this->unwatch(source);
  }
  if (pqApplicationCore* core = pqApplicationCore::instance())
  {
    core->getServerManagerModel()->disconnect(this);
    core->getProgressManager()->disconnect(this);
  }
}

//-----------------------------------------------------------------------------
void pqShallowWaterAbort::watch(pqPipelineSource* source)
{
  // Only a builtin connection has the algorithm in this process (see the class comment).
  if (!source || this->Sources.contains(source) || !source->getServer() ||
      source->getServer()->isRemote())
  {
    return;
  }
  auto* algorithm = vtkAlgorithm::SafeDownCast(source->getSourceProxy()->GetClientSideObject());
  if (!algorithm || !algorithm->IsA("vtkShallowWaterBase"))
  {
    return;
  }
  auto observed = std::make_shared<Observed>();
  observed->Algorithm = algorithm;
  observed->Tags[0] =
    algorithm->AddObserver(vtkCommand::StartEvent, this, &pqShallowWaterAbort::executionStarted);
  observed->Tags[1] =
    algorithm->AddObserver(vtkCommand::ProgressEvent, this, &pqShallowWaterAbort::progressed);
  observed->Tags[2] =
    algorithm->AddObserver(vtkCommand::EndEvent, this, &pqShallowWaterAbort::executionEnded);
  this->Sources.insert(source, observed);
}

//-----------------------------------------------------------------------------
void pqShallowWaterAbort::watchView(pqView* view)
{
  QObject::connect(view, &pqView::endRender, this, [this, view] { this->viewRendered(view); });
}

//-----------------------------------------------------------------------------
void pqShallowWaterAbort::viewRendered(pqView* view)
{
  // After an update in which the gate ran, a view's paint would wait for the gate of the next
  // update (ParaView 5.11 runs no event loop between an animation's frames), which holds it:
  // the view is painted now, and the windows whose paints the gate held, from what they last
  // rendered.
  if (!this->EventsHeld || this->InEvents)
  {
    return;
  }
  QList<QPointer<QObject>> surfaces;
  std::swap(surfaces, this->EventGate->Held);
  if (QObject* surface = SurfaceOf(view))
  {
    surfaces.removeAll(surface);
    surfaces.append(surface);
  }
  for (const QPointer<QObject>& surface : surfaces)
  {
    if (surface)
    {
      PaintNow(surface);
    }
  }
}

//-----------------------------------------------------------------------------
void pqShallowWaterAbort::unwatch(pqPipelineSource* source)
{
  auto found = this->Sources.find(source);
  if (found == this->Sources.end())
  {
    return;
  }
  if (vtkAlgorithm* algorithm = found.value()->Algorithm)
  {
    for (unsigned long tag : found.value()->Tags)
    {
      algorithm->RemoveObserver(tag);
    }
    if (this->Running == algorithm)
    {
      this->Running = nullptr;
    }
  }
  this->Sources.erase(found);
}

//-----------------------------------------------------------------------------
void pqShallowWaterAbort::executionStarted(vtkObject* caller, unsigned long, void*)
{
  this->EventsHeld = false;
  this->Running = static_cast<vtkAlgorithm*>(caller);
  this->SinceEvents.start();
  ProgressManager()->setEnableAbort(true);
}

//-----------------------------------------------------------------------------
void pqShallowWaterAbort::progressed(vtkObject* caller, unsigned long, void* callData)
{
  auto* algorithm = static_cast<vtkAlgorithm*>(caller);
  if (algorithm != this->Running)
  {
    return;
  }
  if (this->AbortArmed)
  {
    if (!algorithm->GetAbortExecute())
    {
      algorithm->SetAbortExecuteAndUpdateTime();
    }
    return;
  }
  // Not at 0 or 1: ParaView's own progress code warns that processing events at zero progress
  // upsets the order its timers expect, and at 1 the run is over.
  const double progress = *static_cast<double*>(callData);
  if (progress <= 0.0 || progress >= 1.0 || this->InEvents ||
      QThread::currentThread() != QCoreApplication::instance()->thread() ||
      this->SinceEvents.elapsed() < 100 || pqCoreConfiguration::instance()->testScriptCount() > 0)
  {
    return;
  }
  this->processEventsForAbort();
  this->SinceEvents.start();
}

//-----------------------------------------------------------------------------
void pqShallowWaterAbort::executionEnded(vtkObject* caller, unsigned long, void*)
{
  auto* algorithm = static_cast<vtkAlgorithm*>(caller);
  if (algorithm != this->Running)
  {
    return;
  }
  this->Running = nullptr;
  // A click after the stepping ended found nothing to stop; left set, the flag would abort the
  // next request at once.
  if (this->AbortArmed && algorithm->GetAbortExecute())
  {
    algorithm->SetAbortExecute(0);
  }
  ProgressManager()->setEnableAbort(false);
}

//-----------------------------------------------------------------------------
void pqShallowWaterAbort::processEventsForAbort()
{
  pqProgressManager* manager = ProgressManager();
  if (!this->EventGate->Button)
  {
    this->EventGate->Button = AbortButton();
  }
  if (!this->EventGate->Button)
  {
    return;
  }
  // The gate decides what gets through; the progress manager's own filter would also stop the
  // press on the window that carries it to the button.
  const bool wasUnblocked = manager->unblockEvents(true);
  this->InEvents = GateRunsEvents = true;
  QCoreApplication::instance()->installEventFilter(this->EventGate.get());
  QCoreApplication::processEvents(
    QEventLoop::ExcludeSocketNotifiers | QEventLoop::X11ExcludeTimers);
  QCoreApplication::instance()->removeEventFilter(this->EventGate.get());
  this->InEvents = GateRunsEvents = false;
  manager->unblockEvents(wasUnblocked);
  this->EventsHeld = true;
}

//-----------------------------------------------------------------------------
void pqShallowWaterAbort::abortRequested()
{
  if (!this->Running)
  {
    return; // the click came after the run
  }
  this->AbortArmed = true;
  this->Running->SetAbortExecuteAndUpdateTime();
  ProgressManager()->setEnableAbort(false);
  // A playing animation would ask for the next frame at once.
  PausePlay();
  // Timers wait while the pipeline updates: this one fires once the event loop runs again.
  QTimer::singleShot(1, this, [this]() { this->AbortArmed = false; });
}

//-----------------------------------------------------------------------------
bool pqShallowWaterGateRunsEvents()
{
  return GateRunsEvents;
}
