#ifndef pqShallowWaterUnitWidgets_h
#define pqShallowWaterUnitWidgets_h

#include "pqPropertyWidgetInterface.h"

#include <QObject>

class QString;

/**
 * Shows a unit right of the value entry of a numeric property whose XML says
 *
 *   <Hints><Unit text="m^2/s"/></Hints>
 *
 * ParaView makes Python property names from XML labels, so a unit in a label would rename the
 * property; the hint keeps labels and names as they are. The widget is the one ParaView would
 * have made (another interface's, else the default one) with a unit label added to its layout:
 * links, signals and decorators stay those of that widget.
 *
 * On the Shallow Water source and solver it also lays the panel out to fit its dock: a table
 * (series, gauges, point sources) under its name across the panel's width, its last column
 * taking what the others leave; and combo boxes (scheme, device, ...) that may be narrower than
 * their longest entry, which otherwise widened the whole panel past the dock.
 */
class pqShallowWaterUnitWidgets
  : public QObject
  , public pqPropertyWidgetInterface
{
  Q_OBJECT
  Q_INTERFACES(pqPropertyWidgetInterface)

public:
  explicit pqShallowWaterUnitWidgets(QObject* parent = nullptr);
  ~pqShallowWaterUnitWidgets() override;

  pqPropertyWidget* createWidgetForProperty(vtkSMProxy* proxy,
    vtkSMProperty* property,
    QWidget* parentWidget) override;

  /**
   * The unit as Qt rich text: "^" and an integer become superscript characters ("m^2/s" gives
   * m²/s), "^(...)" becomes <sup>...</sup> ("s/m^(1/3)"); the rest is escaped.
   */
  static QString unitRichText(const QString& ascii);

private:
  Q_DISABLE_COPY(pqShallowWaterUnitWidgets)
  // Set while the other interfaces are asked, so that one asking all interfaces in turn does not
  // come back here.
  bool Creating = false;
};

#endif
