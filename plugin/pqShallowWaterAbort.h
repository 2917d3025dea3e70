#ifndef pqShallowWaterAbort_h
#define pqShallowWaterAbort_h

#include <QElapsedTimer>
#include <QMap>
#include <QObject>

#include <memory>

class pqPipelineSource;
class pqView;
class vtkAlgorithm;
class vtkObject;

/// Whether the abort gate is running the GUI's events in the middle of a pipeline update: work
/// posted to the event loop that would update views (a chart opened, markers shown, a view fitted)
/// waits for its end, as a view updated then finds its pipeline half made ("Missing VIEW()").
bool pqShallowWaterGateRunsEvents();

/**
 * Lets the progress bar's abort button stop a Shallow Water source or solver while it computes
 * a frame, when ParaView runs the pipeline itself (builtin, no remote server).
 *
 * ParaView 5.11 never enables that button (pqProgressManager::setEnableAbort has no caller) and,
 * the pipeline running on the GUI thread, processes no Qt events while a filter runs, so no click
 * could reach it anyway. While one of our algorithms executes, this enables the button and, on
 * the algorithm's progress events (at most ten a second), processes pending events through a
 * gate: timers and sockets wait; input anywhere but on the abort button and closing are dropped,
 * and the views' repaints held (a view repainted then would render a pipeline half updated): each
 * view is painted as soon as it has rendered, as ParaView runs no event loop between an
 * animation's frames to paint it after; other posted events are delivered, as ParaView 6.1 does
 * when it processes events for its own abort button (the plugin's own deferred work, which would
 * update views, waits: pqShallowWaterGateRunsEvents). A click sets AbortExecute on the algorithm,
 * whose stepping loop checks it; the algorithm returns an empty output marked ABORTED and keeps the
 * state it reached. Runs that start before the event loop runs again (ParaView asks for the frame
 * again after an aborted update; a script goes on) are aborted too, and a playing animation is
 * stopped.
 *
 * In client-server mode the algorithm runs in pvserver, which reads nothing from the client
 * until the request ends, and 5.11 has no abort message: the button stays disabled there.
 */
class pqShallowWaterAbort : public QObject
{
  Q_OBJECT

public:
  explicit pqShallowWaterAbort(QObject* parent = nullptr);
  ~pqShallowWaterAbort() override;

  void startup();
  void shutdown();

private Q_SLOTS:
  void watch(pqPipelineSource* source);
  void watchView(pqView* view);
  void unwatch(pqPipelineSource* source);
  void abortRequested();

private:
  void executionStarted(vtkObject* caller, unsigned long, void*);
  void progressed(vtkObject* caller, unsigned long, void* callData);
  void executionEnded(vtkObject* caller, unsigned long, void*);
  void processEventsForAbort();
  void viewRendered(pqView* view);

  class Gate;
  struct Observed;
  QMap<pqPipelineSource*, std::shared_ptr<Observed>> Sources;
  // The algorithm between its StartEvent and EndEvent, if one of ours.
  vtkAlgorithm* Running = nullptr;
  // Set by a click and cleared once the event loop runs again: runs that start before then are
  // aborted as well, since the user asked for the frame to stop.
  bool AbortArmed = false;
  bool InEvents = false;
  // Whether the gate ran in the last execution of one of our algorithms (viewRendered).
  bool EventsHeld = false;
  QElapsedTimer SinceEvents;
  std::unique_ptr<Gate> EventGate;

  Q_DISABLE_COPY(pqShallowWaterAbort)
};

#endif
