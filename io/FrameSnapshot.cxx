#include "FrameSnapshot.h"

#include "Error.h"
#include "FrameArraySelection.h"
#include "RunSettings.h"
#include "StateBounds.h"

#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkFieldData.h>
#include <vtkImageData.h>
#include <vtkStringArray.h>

#include <cmath>
#include <cstring>

namespace swe
{
namespace
{
// One field of the state: the values of array `name`'s component `component`, which must be of
// the run's precision (no conversion: the values continue bit for bit).
void copyComponent(vtkImageData* frame,
  const std::string& what,
  const char* name,
  int component,
  std::size_t realSize,
  unsigned char* out)
{
  vtkDataArray* array = frame->GetCellData()->GetArray(name);
  if (!array)
    throw Error(what + " has no cell array " + name +
                ": restart from an output of swe run --out or a Shallow Water frame saved whole "
                "(every array, the run's flood maps and infiltration too)");
  if (static_cast<std::size_t>(array->GetDataTypeSize()) != realSize ||
      array->GetDataType() != (realSize == 8 ? VTK_DOUBLE : VTK_FLOAT))
    throw Error(what + " holds " + name + " in " + array->GetDataTypeAsString() +
                ", the run is in " + (realSize == 8 ? "double" : "single") +
                " precision: restart in the precision the state was written in");
  const int components = array->GetNumberOfComponents();
  const vtkIdType n = array->GetNumberOfTuples();
  const vtkIdType cells = frame->GetNumberOfCells();
  if (n != cells || components <= component)
    throw Error(what + "'s " + name + " has " + std::to_string(n) + " tuples of " +
                std::to_string(components) + " components, not " + std::to_string(cells) +
                " of at least " + std::to_string(component + 1) +
                ": it is not a Shallow Water frame saved whole");
  const unsigned char* in = static_cast<const unsigned char*>(array->GetVoidPointer(0));
  for (vtkIdType k = 0; k < n; ++k)
    std::memcpy(out + k * realSize, in + (k * components + component) * realSize, realSize);
}

double fieldValue(vtkImageData* frame, const std::string& what, const char* name)
{
  vtkDataArray* array = vtkDataArray::SafeDownCast(frame->GetFieldData()->GetAbstractArray(name));
  if (!array || array->GetNumberOfTuples() < 1)
    throw Error(what + " has no field data " + name + ": it is not a Shallow Water output");
  return array->GetTuple1(0);
}

// The gauges' samples up to the frame (FrameImage writes them where the run had gauges), for the
// run continued from it; none where the frame has none or the run no gauges.
GaugeRecord frameGauges(vtkImageData* frame,
  const SimulationParameters& params,
  const std::string& what)
{
  vtkFieldData* field = frame->GetFieldData();
  auto* times = vtkDataArray::SafeDownCast(field->GetAbstractArray("GaugeTimes"));
  auto* steps = vtkDataArray::SafeDownCast(field->GetAbstractArray("GaugeSteps"));
  auto* samples = vtkDataArray::SafeDownCast(field->GetAbstractArray("GaugeSamples"));
  GaugeRecord record;
  if (!times || !steps || !samples || params.gauges.empty())
    return record;
  record.gauges = static_cast<int>(params.gauges.size());
  const int width = record.gauges * GaugeRecord::kGaugeValues;
  const vtkIdType n = times->GetNumberOfTuples();
  if (samples->GetNumberOfComponents() != width || samples->GetNumberOfTuples() != n ||
      steps->GetNumberOfTuples() != n)
    throw Error(what + " holds the samples of " +
                std::to_string(samples->GetNumberOfComponents() / GaugeRecord::kGaugeValues) +
                " gauges, the run has " + std::to_string(record.gauges) +
                ": continue it with the gauges it was written with");
  for (vtkIdType k = 0; k < n; ++k)
  {
    record.time.push_back(times->GetComponent(k, 0));
    record.step.push_back(static_cast<std::int64_t>(steps->GetComponent(k, 0)));
    for (int c = 0; c < width; ++c)
      record.values.push_back(samples->GetComponent(k, c));
  }
  return record;
}

// Where the run's settings differ from those of the run that wrote the frame (frames before
// RunSettings: none): refused where the frame's records cannot go on, else said.
std::string settingsWarning(vtkImageData* frame, const Simulation& run, const std::string& what)
{
  const SimulationParameters& params = run.parameters();
  const double spacing = frame->GetSpacing()[0];
  if (std::fabs(spacing - params.dx) > 1e-9 * params.dx)
    throw Error(what + " has cells of " + formatValue(spacing) + " m, this run has " +
                formatValue(params.dx) + " m: restart on the grid the state was written on");
  vtkFieldData* field = frame->GetFieldData();
  auto* text = vtkStringArray::SafeDownCast(field->GetAbstractArray("RunSettings"));
  if (!text || text->GetNumberOfValues() < 1)
    return "";
  const bool gaugeRecords = !params.gauges.empty() && field->GetAbstractArray("GaugeTimes");
  const bool mapRecords =
    params.floodMaps && frame->GetCellData()->GetArray(fieldName(Field::MaxDepth));
  std::string others;
  for (const SettingDifference& d : settingDifferences(text->GetValue(0), run.settings()))
  {
    if ((d.name == "gauges" && gaugeRecords) || (d.name == "arrival depth" && mapRecords))
      throw Error(what + " was written with " + d.describe() + ": its " +
                  (d.name == "gauges" ? "gauges' records" : "flood maps") +
                  " go on only with the same. Set it as the frame has it, or run from t = 0");
    others += (others.empty() ? "" : "; ") + d.describe();
  }
  if (others.empty())
    return "";
  return what + " was written by a run with other settings: " + others +
         ". This run goes on from its state with its own settings (a hot start), not as the run "
         "that wrote it would";
}
} // namespace

Snapshot frameSnapshot(vtkImageData* frame,
  const Simulation& run,
  const std::string& what,
  std::string& warning)
{
  const SimulationParameters& params = run.parameters();
  int extent[6];
  frame->GetExtent(extent);
  const int nx = extent[1] - extent[0], ny = extent[3] - extent[2];
  if (extent[5] - extent[4] > 1 || nx != params.nx || ny != params.ny)
    throw Error(what + " holds a state of " + std::to_string(nx) + " x " + std::to_string(ny) +
                " cells, the run has " + std::to_string(params.nx) + " x " +
                std::to_string(params.ny) + ": restart on the grid the state was written on");
  Snapshot s;
  s.nx = nx;
  s.ny = ny;
  s.realSize = params.precision == Precision::Double ? 8 : 4;
  const std::vector<Field> fields = stateFields(params);
  s.fields = static_cast<int>(fields.size());
  // (a clock no run has is refused before its step count is cast)
  requireRestartClock(
    fieldValue(frame, what, "SimulationTime"), fieldValue(frame, what, "Steps"), what);
  s.time = fieldValue(frame, what, "SimulationTime");
  s.steps = static_cast<std::int64_t>(fieldValue(frame, what, "Steps"));
  // (the wave speed the next dt is chosen from, as the run that wrote it had it: Snapshot)
  if (frame->GetFieldData()->GetAbstractArray("StepWaveSpeed"))
    s.waveSpeed = fieldValue(frame, what, "StepWaveSpeed");
  s.gauges = frameGauges(frame, params, what);
  s.data.resize(s.bytes());
  const std::size_t fieldBytes = static_cast<std::size_t>(nx) * ny * s.realSize;
  for (std::size_t f = 0; f < fields.size(); ++f)
  {
    // (the frame's array of each field: Momentum holds hu and hv; the kept fields their own)
    const Field field = fields[f];
    const bool momentum = field == Field::MomentumX || field == Field::MomentumY;
    const char* name =
      momentum ? kFrameArrayNames[static_cast<int>(FrameArray::Momentum)] : fieldName(field);
    copyComponent(frame,
      what,
      name,
      field == Field::MomentumY ? 1 : 0,
      s.realSize,
      s.data.data() + f * fieldBytes);
  }
  requireRestartState(s, what);
  warning = settingsWarning(frame, run, what);
  return s;
}
} // namespace swe
