#ifndef pqShallowWaterMonitor_h
#define pqShallowWaterMonitor_h

#include <QDockWidget>
#include <QList>
#include <QMap>
#include <QPointer>
#include <QSet>

#include <memory>

class QLabel;
class pqPipelineSource;
class vtkPVDataInformation;
class vtkSMProxy;
namespace Ui
{
class pqShallowWaterMonitor;
}

/**
 * The "Shallow Water Monitor" dock: follows the active Shallow Water source or solver and shows
 * its run as its frames arrive: device, scheme and precision, grid, simulated time against the
 * end time, steps, steps and cell updates a second, the mean time step, the water (stored volume
 * and balance error with Water Balance, else the mass), the device memory the run holds, and a
 * small chart of one of these over simulated time; with buttons to play to the end, pause, and
 * restart from t = 0.
 *
 * It reads only what ParaView already has on the client after each update: the proxy's
 * properties and its output's data information (the frame's field data: SimulationTime, Steps,
 * StepSeconds, Mass, StoredVolume, Device, DeviceMemory...), so it works the same against a
 * pvserver and costs the run no step and no download. For tests, SWE_MONITOR_LOG names a file to
 * which every refresh appends its readout, one line of tab-separated key=value fields.
 */
class pqShallowWaterMonitor : public QDockWidget
{
  Q_OBJECT

public:
  explicit pqShallowWaterMonitor(QWidget* parent = nullptr,
    Qt::WindowFlags flags = Qt::WindowFlags());
  ~pqShallowWaterMonitor() override;

private Q_SLOTS:
  void follow(pqPipelineSource* source);
  void forget(pqPipelineSource* source);
  void refresh();
  void drawChart();
  void runToEnd();
  void pause();
  void restart();

private:
  // What one frame said, by its simulated time.
  struct Sample
  {
    double steps = 0, stepSeconds = 0, water = 0, largestDepth = 0, floodedArea = 0;
    double stepsPerSecond = -1; // < 0: unknown (a frame from a checkpoint took no steps)
  };
  // The frame at `time` into the source's history (a new run's starts it afresh).
  Sample record(pqPipelineSource* source, vtkPVDataInformation* info, double time);
  void showReadouts(pqPipelineSource* source,
    vtkPVDataInformation* info,
    double time,
    const Sample& sample);
  // The time step readout, from the frame alone: the step it chose next and the mean since t = 0.
  void showTimeStep(vtkSMProxy* proxy, vtkPVDataInformation* info, double time, double dx);
  // Every readout back to "-", the progress bar saying why.
  void clearReadouts(const QString& why);
  // The labels that show the followed run's numbers.
  QList<QLabel*> readouts() const;
  void log(const QString& line) const;

  std::unique_ptr<Ui::pqShallowWaterMonitor> Form;
  QPointer<pqPipelineSource> Followed;
  QMap<pqPipelineSource*, QMap<double, Sample>> History;
  QMap<pqPipelineSource*, QString> Settings; // the RunSettings of the run in History
  QMap<pqPipelineSource*, bool> Restarted;   // whether History starts a run started again
  QMap<pqPipelineSource*, double> ChartUpTo; // the time of the frame shown: the chart's end
};

#endif
