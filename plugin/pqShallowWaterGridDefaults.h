#ifndef pqShallowWaterGridDefaults_h
#define pqShallowWaterGridDefaults_h

#include <QObject>

class pqPipelineSource;

/**
 * Sizes a new Shallow Water source's grid to the devices of its server: the 1000 x 1000 cells
 * of 0.5 m it starts with where there is a GPU, and the same 500 m basin in 500 x 500 cells of
 * 1 m where the server has CPUs alone, where the larger grid plays at a frame every two seconds.
 * Only a source made in the GUI with both values at their defaults: one from Python with a
 * Resolution, or from a saved state, keeps what it says.
 */
class pqShallowWaterGridDefaults : public QObject
{
  Q_OBJECT

public:
  explicit pqShallowWaterGridDefaults(QObject* parent = nullptr);
  ~pqShallowWaterGridDefaults() override = default;

  void startup();
  void shutdown() {}

private Q_SLOTS:
  void sized(pqPipelineSource* source);
};

#endif
