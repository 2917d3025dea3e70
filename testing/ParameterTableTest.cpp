// The scalar parameters' table (solver/ParameterTable.h): its ranges are what validate() takes,
// its messages name the value and the range, and the proxies' XML agrees with it.
#include "Error.h"
#include "ParameterTable.h"
#include "Parameters.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

using namespace swe;

namespace
{
// A run every scalar parameter can be set in: MUSCL-Hancock (wet/dry, infiltration), Green-Ampt
// on, so that its three values are checked.
SimulationParameters runWithSoil()
{
  SimulationParameters p;
  p.nx = p.ny = 8;
  p.scheme = Scheme::MusclHancock;
  p.infiltration = { 10, 110, 0.3 };
  return p;
}

std::string messageOf(const SimulationParameters& p)
{
  try
  {
    p.validate();
  }
  catch (const Error& e)
  {
    return e.what();
  }
  return "";
}
} // namespace

TEST(ParameterTable, EntriesInTheOrderOfTheirIds)
{
  std::set<std::string> properties, flags;
  for (std::size_t k = 0; k < kScalarCount; ++k)
  {
    const ScalarParameter& p = scalarParameters()[k];
    EXPECT_EQ(static_cast<std::size_t>(p.id), k) << p.property;
    EXPECT_TRUE(properties.insert(p.property).second) << p.property;
    if (*p.flag)
    {
      EXPECT_TRUE(flags.insert(p.flag).second) << p.flag;
    }
    EXPECT_EQ(&scalarParameterOfProperty(p.property), &p);
  }
  EXPECT_THROW(scalarParameterOfProperty("Manning"), Error);
}

TEST(ParameterTable, DefaultsAreTheEnginesAndTakenByValidate)
{
  const SimulationParameters defaults;
  for (const ScalarParameter& p : scalarParameters())
    EXPECT_EQ(p.get(defaults), p.defaultValue) << p.property;
  EXPECT_EQ(messageOf(runWithSoil()), "");
}

std::string rangeMessage(const ScalarParameter& p, double value)
{
  try
  {
    requireInRange(p, value);
  }
  catch (const Error& e)
  {
    return e.what();
  }
  return "";
}

// A run that takes every parameter at either end of its range: Green-Ampt's three values only
// with Green-Ampt on (with a soil map, where a conductivity of 0 is that of cells without one),
// the loss rate only without it.
SimulationParameters runFor(const ScalarParameter& p)
{
  SimulationParameters run = runWithSoil();
  if (!p.checkedTogether)
    run.infiltration = {};
  run.infiltration.perCell = p.checkedTogether;
  return run;
}

TEST(ParameterTable, EachRangeIsWhatValidateTakes)
{
  for (const ScalarParameter& p : scalarParameters())
  {
    SimulationParameters run = runFor(p);
    p.set(run, p.least);
    EXPECT_EQ(messageOf(run), "") << p.property << " at its least";
    if (!std::isinf(p.most))
    {
      p.set(run, p.most);
      EXPECT_EQ(messageOf(run), "") << p.property << " at its most";
    }
    // Past either end (below: a negative value, or a positive one below a positive least),
    // refused by validate() with the range and the value.
    const double below = p.least > 0 ? (p.whole ? p.least - 1 : p.least / 2) : -1;
    p.set(run, below);
    EXPECT_NE(messageOf(run).find(std::string(p.name) + " must be " + rangeText(p) + ", got " +
                                  formatValue(below) + " (" + p.hint + ")"),
      std::string::npos)
      << messageOf(run);
    if (!std::isinf(p.most))
    {
      p.set(run, p.most + 1);
      EXPECT_NE(messageOf(run).find("got " + formatValue(p.most + 1)), std::string::npos)
        << messageOf(run);
    }
    EXPECT_NE(rangeMessage(p, std::nan("")).find(std::string(p.name) + " must be a finite number"),
      std::string::npos)
      << p.property;
    EXPECT_EQ(rangeMessage(p, p.defaultValue), "") << p.property;
  }
}

TEST(ParameterTable, ZeroMeansNoneWhereTheTableSaysSo)
{
  SimulationParameters run = runWithSoil();
  run.fixedDt = 0;
  EXPECT_EQ(messageOf(run), "");
  run.fixedDt = kMinFixedDt / 10;
  EXPECT_NE(messageOf(run).find("fixed time step dt must be at least 1e-06 s, or 0, got 1e-07"),
    std::string::npos)
    << messageOf(run);
}

TEST(ParameterTable, WholeNumbersStayWhole)
{
  SimulationParameters run = runWithSoil();
  scalarParameter(ScalarId::ExchangeInterval).set(run, 8);
  EXPECT_EQ(run.exchangeInterval, 8);
  EXPECT_EQ(messageOf(run), "");
  EXPECT_EQ(
    rangeText(scalarParameter(ScalarId::ExchangeInterval)), "in [1, 64] steps (a whole number)");
}

// Each parameter's property in the proxies' XML: there, set by its own command, with the table's
// unit, a slider inside the table's range and the table's default (or the proxy's own, filled in
// by xml/ProxyXml.cmake).
TEST(ParameterTable, ProxyXmlAgrees)
{
  std::ifstream file(SWE_PROXY_XML_TEMPLATE);
  ASSERT_TRUE(file) << SWE_PROXY_XML_TEMPLATE;
  std::stringstream text;
  text << file.rdbuf();
  const std::string xml = text.str();
  for (const ScalarParameter& p : scalarParameters())
  {
    const std::regex element("<(Double|Int)VectorProperty name=\"" + std::string(p.property) +
                             "\"[\\s\\S]*?</(Double|Int)VectorProperty>");
    std::smatch found;
    ASSERT_TRUE(std::regex_search(xml, found, element)) << p.property;
    const std::string property = found.str();
    EXPECT_NE(property.find(std::string("command=\"Set") + p.property + "\""), std::string::npos)
      << p.property;
    if (*p.unit && std::string(p.unit) != "steps")
    {
      EXPECT_NE(property.find(std::string("<Unit text=\"") + p.unit + "\"/>"), std::string::npos)
        << p.property << " has no unit " << p.unit;
    }
    std::smatch value;
    ASSERT_TRUE(std::regex_search(property, value, std::regex("default_values=\"([^\"]*)\"")));
    if (value[1].str().front() != '@')
    {
      EXPECT_EQ(std::stod(value[1].str()), p.defaultValue) << p.property;
    }
    const double least = p.zeroIsOff ? 0 : p.least;
    if (std::regex_search(
          property, value, std::regex("RangeDomain name=\"range\" min=\"([^\"]*)\"")))
    {
      EXPECT_GE(std::stod(value[1].str()), least) << p.property;
    }
    if (std::regex_search(property, value, std::regex("RangeDomain [^>]*max=\"([^\"]*)\"")))
    {
      EXPECT_LE(std::stod(value[1].str()), p.most) << p.property;
    }
  }
}
