#ifndef pqShallowWaterLegendFormat_h
#define pqShallowWaterLegendFormat_h

#include <QObject>

class pqRepresentation;

/**
 * Writes the end values of a flood array's legend as plain numbers ("8.61", "120"), not in
 * ParaView's scientific default ("8.6e+00"), which reads badly for depths and times. Only the
 * legends of the solver's own arrays, only while the value is ParaView's default: a user's
 * own format, a site's setting and a saved state keep theirs. ParaView has no per-array setting
 * for this, so it is set on each new legend.
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
};

#endif
