#ifndef pqShallowWaterLegendFormat_h
#define pqShallowWaterLegendFormat_h

#include <QMap>
#include <QObject>
#include <QString>
#include <vtkWeakPointer.h>

#include <vector>

class pqPipelineSource;
class pqRepresentation;
class vtkSMProxy;

/**
 * Writes the end values of a flood array's legend as plain numbers ("8.61", "120"), not in
 * ParaView's scientific default ("8.6e+00"), which reads badly for depths and times. Only the
 * legends of the solver's own arrays, only while the value is ParaView's default: a user's
 * own format, a site's setting and a saved state keep theirs. ParaView has no per-array setting
 * for this, so it is set on each new legend. The colour map of a legend so set never spans an
 * empty range (a dry frame's depths, all 0), which ParaView would draw as 0 to 1.2e-38; and
 * the colour maps of a Shallow Water output, which grow with the data, start again from the
 * data's range when a run with other settings (a property applied) gives the frame.
 */
class pqShallowWaterLegendFormat : public QObject
{
  Q_OBJECT

public:
  explicit pqShallowWaterLegendFormat(QObject* parent = nullptr);
  ~pqShallowWaterLegendFormat() override = default;

  void startup();
  void shutdown() {}

private Q_SLOTS:
  void formatted(pqRepresentation* representation);
  void watch(pqPipelineSource* source);
  void rescaleForNewRun(pqPipelineSource* source);

private:
  // What tells one run's frame from another's: its settings (field data RunSettings, which leave
  // out the initial water), its time and its step count.
  struct RunMark
  {
    QString settings;
    double time = -1, steps = -1;
    bool startsAnotherRun(const RunMark& before) const;
  };
  static RunMark runMarkOf(pqPipelineSource* source);

  // The last frame seen of each Shallow Water source.
  QMap<pqPipelineSource*, RunMark> LastFrames;
  // The colour maps whose ranges are watched.
  std::vector<vtkWeakPointer<vtkSMProxy>> Watched;
};

#endif
