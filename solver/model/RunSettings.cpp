#include "RunSettings.h"

#include "ParameterTable.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <sstream>

namespace swe
{
namespace
{
// A value as the shortest text that reads back as the same double.
std::string exact(double value)
{
  char text[32];
  for (int digits = 6; digits <= 17; ++digits)
  {
    std::snprintf(text, sizeof(text), "%.*g", digits, value);
    if (std::strtod(text, nullptr) == value)
      break;
  }
  return text;
}

// A 64-bit digest of values, word by word (FNV-1a's mixing on whole doubles).
class Digest
{
public:
  void add(double value) { hash_ = (hash_ ^ bits(value)) * kPrime; }
  // (four lanes, folded after: a DEM of 4096² cells takes milliseconds, not the chain of
  // multiplications one lane makes)
  void add(const std::vector<double>& values)
  {
    add(static_cast<double>(values.size()));
    std::uint64_t lanes[4] = { hash_, hash_ + 1, hash_ + 2, hash_ + 3 };
    std::size_t k = 0;
    for (; k + 4 <= values.size(); k += 4)
      for (int l = 0; l < 4; ++l)
        lanes[l] = (lanes[l] ^ bits(values[k + l])) * kPrime;
    for (; k < values.size(); ++k)
      lanes[0] = (lanes[0] ^ bits(values[k])) * kPrime;
    for (std::uint64_t lane : lanes)
      hash_ = (hash_ ^ lane) * kPrime;
  }
  void add(const Series& series)
  {
    add(static_cast<double>(series.size()));
    for (const auto& point : series)
    {
      add(point[0]);
      add(point[1]);
    }
  }
  std::string text() const
  {
    char hex[24];
    std::snprintf(hex, sizeof(hex), "#%016llx", static_cast<unsigned long long>(hash_));
    return hex;
  }

private:
  static constexpr std::uint64_t kPrime = 0x100000001b3ULL;
  static std::uint64_t bits(double value)
  {
    std::uint64_t b;
    std::memcpy(&b, &value, sizeof b);
    return b;
  }
  std::uint64_t hash_ = 0xcbf29ce484222325ULL;
};

std::string seriesText(const Series& series)
{
  if (series.empty())
    return "none";
  Digest d;
  d.add(series);
  return std::to_string(series.size()) + " points " + d.text();
}

std::string sideText(const SimulationParameters& p, int side)
{
  const Boundary& b = p.boundaries[side];
  std::string text = boundaryTypeNames()[static_cast<std::size_t>(b.type)];
  if (b.type == BoundaryType::Inflow || b.type == BoundaryType::FixedLevel)
    text += b.series.empty() ? " " + exact(b.value) : " series of " + seriesText(b.series);
  if (b.onStretch())
    text += " from " + exact(b.from) + " to " + exact(b.to) + " m";
  return text;
}
} // namespace

std::string runSettingsText(const SimulationParameters& p, const InitialState& initial)
{
  std::ostringstream s;
  const auto line = [&s](const char* name, const std::string& value)
  { s << name << '=' << value << '\n'; };
  line("scheme", schemeName(p.scheme));
  line("cell size", exact(p.dx));
  for (const ScalarParameter& parameter : scalarParameters())
    if (*parameter.setting)
      line(parameter.setting, exact(parameter.get(p)));
  line("rain series", seriesText(p.rainSeries));
  Digest zones;
  for (const Series& zone : p.rainZones)
    zones.add(zone);
  line("rain zones",
    p.rainZones.empty() ? "none" : std::to_string(p.rainZones.size()) + " " + zones.text());
  line("Green-Ampt",
    exact(p.infiltration.conductivity) + " mm/h, " + exact(p.infiltration.suction) + " mm, " +
      exact(p.infiltration.deficit));
  Digest sources;
  for (const PointSource& source : p.sources)
  {
    sources.add(source.x);
    sources.add(source.y);
    sources.add(source.discharge);
  }
  line("point sources", std::to_string(p.sources.size()) + " " + sources.text());
  for (int side = 0; side < 4; ++side)
    line((sideNames()[static_cast<std::size_t>(side)] + " side").c_str(), sideText(p, side));
  std::string gauges;
  for (const auto& g : p.gauges)
    gauges += (gauges.empty() ? "" : "; ") + exact(g[0]) + ", " + exact(g[1]);
  line("gauges", gauges.empty() ? "none" : gauges);
  // (the terrain and the per-cell fields the engine reads from the initial state)
  Digest terrain;
  for (const std::vector<double>* field : { &initial.bed,
         &initial.manning,
         &initial.rain,
         &initial.conductivity,
         &initial.suction,
         &initial.deficit })
    terrain.add(*field);
  line("terrain", terrain.text());
  return s.str();
}

std::string SettingDifference::describe() const
{
  // (digests say only that values differ: "terrain (another)", "rain series 4 points (this
  // run: 6 points)")
  const auto readable = [](std::string value)
  {
    const std::size_t hash = value.find('#');
    return hash == std::string::npos ? value : value.erase(hash == 0 ? 0 : hash - 1, 18);
  };
  const std::string before = readable(frameValue), now = readable(runValue);
  if (before == now)
    return before.empty() ? name + " (another)" : name + " " + before + " (other values)";
  return name + " " + before + " (this run: " + now + ")";
}

std::vector<SettingDifference> settingDifferences(const std::string& frameText,
  const std::string& runText)
{
  const auto parse = [](const std::string& text)
  {
    std::vector<std::pair<std::string, std::string>> settings;
    std::istringstream in(text);
    std::string lineText;
    while (std::getline(in, lineText))
    {
      const std::size_t eq = lineText.find('=');
      if (eq != std::string::npos)
        settings.emplace_back(lineText.substr(0, eq), lineText.substr(eq + 1));
    }
    return settings;
  };
  std::vector<SettingDifference> differences;
  const auto run = parse(runText);
  for (const auto& [name, value] : parse(frameText))
    for (const auto& [runName, runValue] : run)
      if (runName == name && runValue != value)
        differences.push_back({ name, value, runValue });
  return differences;
}
} // namespace swe
