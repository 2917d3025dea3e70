#include "GaugeOutput.h"

#include "AtomicFile.h"
#include "Error.h"
#include "Parameters.h"

#include <cstdio>
#include <sstream>
#include <iomanip>
#include <iostream>

namespace swe::cli
{
std::vector<std::array<double, 2>> gaugePoints(const std::vector<std::string>& texts,
  const std::array<double, 3>& origin,
  const std::string& option)
{
  std::vector<std::array<double, 2>> points;
  for (const std::string& text : texts)
  {
    double x = 0, y = 0;
    char extra = 0;
    if (std::sscanf(text.c_str(), "%lf,%lf%c", &x, &y, &extra) != 2)
      throw Error(option + " '" + text + "' should read X,Y in metres, e.g. " + option +
                  " 120.5,80" + (option == "--source" ? ":pump.csv" : ""));
    points.push_back({ x - origin[0], y - origin[1] });
  }
  return points;
}

void writeGaugeCsv(const GaugeRecord& record, const std::string& path)
{
  std::ostringstream out;
  out << "time,step";
  for (int g = 1; g <= record.gauges; ++g)
    out << ",g" << g << "_depth,g" << g << "_surface,g" << g << "_u,g" << g << "_v";
  // (every digit a double holds: the values read back are the record's, bit for bit)
  out << "\n" << std::setprecision(17);
  for (std::size_t s = 0; s < record.time.size(); ++s)
  {
    out << record.time[s] << "," << record.step[s];
    for (int g = 0; g < record.gauges; ++g)
      for (int v = 0; v < GaugeRecord::kGaugeValues; ++v)
        out << "," << record.value(s, g, v);
    out << "\n";
  }
  writeFileAtomically(path, out.str());
}

void printGaugePeaks(const GaugeRecord& record)
{
  for (int g = 0; g < record.gauges; ++g)
  {
    std::size_t peak = 0;
    double highest = -1e300;
    for (std::size_t s = 0; s < record.time.size(); ++s)
    {
      if (record.value(s, g, 0) > record.value(peak, g, 0))
        peak = s;
      highest = std::max(highest, record.value(s, g, 1));
    }
    if (record.time.empty())
      continue;
    std::cerr << "swe: gauge " << g + 1 << ": peak depth " << record.value(peak, g, 0)
              << " m at t = " << record.time[peak] << " s, highest surface " << highest << " m\n";
  }
}
} // namespace swe::cli
