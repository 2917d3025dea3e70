#include "pqShallowWaterUnitWidgets.h"

#include "pqApplicationCore.h"
#include "pqDoubleVectorPropertyWidget.h"
#include "pqIntVectorPropertyWidget.h"
#include "pqInterfaceTracker.h"
#include "pqPropertyWidget.h"
#include "pqStringVectorPropertyWidget.h"
#include "vtkPVXMLElement.h"
#include "vtkSMDoubleVectorProperty.h"
#include "vtkSMEnumerationDomain.h"
#include "vtkSMIntVectorProperty.h"
#include "vtkSMStringListDomain.h"
#include "vtkSMStringVectorProperty.h"
#include "vtkSMProperty.h"

#include <QBoxLayout>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QToolButton>

#include <cstring>

namespace
{
// The unit a property's hints give it, or an empty string.
QString HintedUnit(vtkSMProperty* property)
{
  vtkPVXMLElement* hints = property ? property->GetHints() : nullptr;
  vtkPVXMLElement* unit = hints ? hints->FindNestedElementByName("Unit") : nullptr;
  const char* text = unit ? unit->GetAttribute("text") : nullptr;
  return text ? QString::fromUtf8(text).trimmed() : QString();
}

QChar SuperscriptDigit(QChar digit)
{
  // U+2070..U+2079, except 1, 2 and 3, which Latin-1 has.
  static const char16_t codes[10] = {
    0x2070, 0x00B9, 0x00B2, 0x00B3, 0x2074, 0x2075, 0x2076, 0x2077, 0x2078, 0x2079
  };
  return QChar(codes[digit.digitValue()]);
}

// Adds the unit right of the value entries: before the tool buttons (scale, reset) that some
// widgets end with, so that it reads as the value's unit.
void AddUnitLabel(pqPropertyWidget* widget, const QString& unit)
{
  auto* layout = qobject_cast<QBoxLayout*>(widget->layout());
  if (!layout)
  {
    return; // a layout of its own kind: the widget is shown without a unit
  }
  int index = layout->count();
  for (int i = 0; i < layout->count(); ++i)
  {
    if (qobject_cast<QToolButton*>(layout->itemAt(i)->widget()))
    {
      index = i;
      break;
    }
  }
  auto* label = new QLabel(pqShallowWaterUnitWidgets::unitRichText(unit), widget);
  label->setObjectName("Unit");
  label->setTextFormat(Qt::RichText);
  label->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Preferred);
  // (a few pixels clear of the panel's edge and scroll bar, which cut the last letter off)
  label->setContentsMargins(0, 0, 6, 0);
  label->setToolTip(QString("Unit: %1").arg(label->text()));
  layout->insertWidget(index, label);
}

// Whether a property is one of our tables: rows of several columns with their labels (series,
// gauges, point sources) on a Shallow Water source or solver.
bool IsLabelledTable(vtkSMProxy* proxy, vtkSMDoubleVectorProperty* property)
{
  const char* name = proxy ? proxy->GetXMLName() : nullptr;
  vtkPVXMLElement* hints = property ? property->GetHints() : nullptr;
  return name && property && std::strncmp(name, "ShallowWater", 12) == 0 &&
         property->GetRepeatCommand() && property->GetNumberOfElementsPerCommand() > 1 && hints &&
         hints->FindNestedElementByName("ShowComponentLabels");
}

// A table under its label, the panel's whole width: beside the label, as ParaView lays a
// property out, its columns were cut to a few characters ("e (s)", "rge (m²/s) or l").
class TableUnderLabel : public pqDoubleVectorPropertyWidget
{
public:
  TableUnderLabel(vtkSMDoubleVectorProperty* property, vtkSMProxy* proxy, QWidget* parent)
    : pqDoubleVectorPropertyWidget(property, proxy, parent)
  {
    auto* layout = qobject_cast<QBoxLayout*>(this->layout());
    if (!layout)
      return; // (laid out some other way: ParaView's own look)
    this->setShowLabel(false);
    layout->setDirection(QBoxLayout::TopToBottom);
    auto* label = new QLabel(QString::fromUtf8(property->GetXMLLabel()), this);
    label->setObjectName("TableLabel");
    label->setToolTip(pqPropertyWidget::getTooltip(property));
    layout->insertWidget(0, label);
    // (the last column, a series' values, takes what the others leave)
    for (QTableView* table : this->findChildren<QTableView*>())
    {
      table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
      table->horizontalHeader()->setStretchLastSection(true);
    }
  }
};

// Whether a property is a choice from a list (a combo box) on a Shallow Water source or solver:
// an enumeration, or a list of names (the devices).
bool IsOurChoice(vtkSMProxy* proxy, vtkSMProperty* property)
{
  const char* name = proxy ? proxy->GetXMLName() : nullptr;
  return name && property && std::strncmp(name, "ShallowWater", 12) == 0 &&
         ((vtkSMIntVectorProperty::SafeDownCast(property) &&
            property->FindDomain<vtkSMEnumerationDomain>()) ||
           (vtkSMStringVectorProperty::SafeDownCast(property) &&
             property->FindDomain<vtkSMStringListDomain>()));
}

// Lets a widget's combo boxes be narrower than their longest entry ("MUSCL-Hancock (second
// order, terrain, wet/dry, fastest)"), which otherwise widened the whole panel past its dock;
// the open list still shows every entry whole.
void LetChoicesNarrow(QWidget* widget)
{
  constexpr int kCharacters = 14;
  for (QComboBox* choice : widget->findChildren<QComboBox*>())
  {
    choice->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    choice->setMinimumContentsLength(kCharacters);
  }
}
} // namespace

//-----------------------------------------------------------------------------
pqShallowWaterUnitWidgets::pqShallowWaterUnitWidgets(QObject* parent)
  : QObject(parent)
{
}

//-----------------------------------------------------------------------------
pqShallowWaterUnitWidgets::~pqShallowWaterUnitWidgets() = default;

//-----------------------------------------------------------------------------
pqPropertyWidget* pqShallowWaterUnitWidgets::createWidgetForProperty(vtkSMProxy* proxy,
  vtkSMProperty* property,
  QWidget* parentWidget)
{
  auto* dvp = vtkSMDoubleVectorProperty::SafeDownCast(property);
  auto* ivp = vtkSMIntVectorProperty::SafeDownCast(property);
  if (!this->Creating && IsLabelledTable(proxy, dvp))
  {
    return new TableUnderLabel(dvp, proxy, parentWidget);
  }
  if (!this->Creating && IsOurChoice(proxy, property))
  {
    pqPropertyWidget* choice =
      ivp ? pqIntVectorPropertyWidget::createWidget(ivp, proxy, parentWidget)
          : pqStringVectorPropertyWidget::createWidget(
              vtkSMStringVectorProperty::SafeDownCast(property), proxy, parentWidget);
    if (choice)
    {
      LetChoicesNarrow(choice);
    }
    return choice;
  }
  const QString unit = HintedUnit(property);
  if ((!dvp && !ivp) || unit.isEmpty() || this->Creating)
  {
    return nullptr; // ParaView's own choice applies
  }

  // The widget pqProxyWidget::createWidgetForProperty would make without this interface: the
  // first other interface's, else the default one for the property's type.
  pqPropertyWidget* widget = nullptr;
  this->Creating = true;
  const auto interfaces =
    pqApplicationCore::instance()->interfaceTracker()->interfaces<pqPropertyWidgetInterface*>();
  for (pqPropertyWidgetInterface* other : interfaces)
  {
    if (other != this &&
        (widget = other->createWidgetForProperty(proxy, property, parentWidget)) != nullptr)
    {
      break;
    }
  }
  this->Creating = false;
  if (!widget)
  {
    widget = dvp ? static_cast<pqPropertyWidget*>(
                     new pqDoubleVectorPropertyWidget(dvp, proxy, parentWidget))
                 : pqIntVectorPropertyWidget::createWidget(ivp, proxy, parentWidget);
  }
  if (widget)
  {
    AddUnitLabel(widget, unit);
  }
  return widget;
}

//-----------------------------------------------------------------------------
QString pqShallowWaterUnitWidgets::unitRichText(const QString& ascii)
{
  QString text;
  for (int i = 0; i < ascii.size();)
  {
    if (ascii[i] == '^')
    {
      // "^(...)": any exponent, as HTML superscript.
      const int close = ascii.indexOf(')', i + 2);
      if (i + 1 < ascii.size() && ascii[i + 1] == '(' && close > 0)
      {
        text += "<sup>" + ascii.mid(i + 2, close - i - 2).toHtmlEscaped() + "</sup>";
        i = close + 1;
        continue;
      }
      // "^2", "^-1": superscript characters, which keep the line height.
      int j = i + 1;
      QString exponent;
      if (j < ascii.size() && ascii[j] == '-')
      {
        exponent += QChar(0x207B);
        ++j;
      }
      const int digits = j;
      for (; j < ascii.size() && ascii[j] >= '0' && ascii[j] <= '9'; ++j)
      {
        exponent += SuperscriptDigit(ascii[j]);
      }
      if (j > digits)
      {
        text += exponent;
        i = j;
        continue;
      }
    }
    text += QString(ascii[i]).toHtmlEscaped();
    ++i;
  }
  return text;
}
