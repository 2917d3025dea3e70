#include "Devices.h"
#include "Error.h"
#include "HostMemory.h"
#include "Simulation.h"

#include <gtest/gtest.h>

#include <regex>
#include <unistd.h>

using namespace swe;

TEST(Devices, ListsAtLeastOneDeviceWithItsProperties)
{
  const auto devices = listDevices();
  ASSERT_FALSE(devices.empty()) << "CI needs an OpenCL device (PoCL)";
  for (std::size_t k = 0; k < devices.size(); ++k)
  {
    const DeviceInfo& d = devices[k];
    EXPECT_EQ(d.index, static_cast<int>(k));
    EXPECT_FALSE(d.name.empty());
    EXPECT_FALSE(d.platform.empty());
    EXPECT_GT(d.globalMemory, 0u);
    EXPECT_GT(d.maxWorkGroupSize, 0u);
    // index | platform | device | type | memory | fp64
    EXPECT_TRUE(std::regex_match(d.summary(),
      std::regex(
        R"(\d+ \| .+ \| .+ \| (GPU|CPU|accelerator|other) \| [0-9.]+ GiB \| fp64 (yes|no))")))
      << d.summary();
  }
}

TEST(Devices, SelectsByAutoIndexAndName)
{
  const auto devices = listDevices();
  ASSERT_FALSE(devices.empty());
  EXPECT_EQ(selectDevice("0").index, 0);
  const DeviceInfo chosen = selectDevice("auto");
  bool hasGpu = false;
  for (const auto& d : devices)
    hasGpu = hasGpu || d.type == "GPU";
  EXPECT_EQ(chosen.type, hasGpu ? "GPU" : devices.front().type);
  // Case-insensitive substring of the name.
  std::string part = devices.back().name.substr(0, 6);
  for (auto& c : part)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  EXPECT_EQ(selectDevice(part).name.substr(0, 6), devices.back().name.substr(0, 6));
}

TEST(Devices, AutoPrefersGpuThenCpu)
{
  DeviceInfo cpu, gpu, other;
  cpu.index = 0, cpu.type = "CPU", cpu.name = "a cpu";
  other.index = 1, other.type = "accelerator", other.name = "an fpga";
  gpu.index = 2, gpu.type = "GPU", gpu.name = "a gpu";
  EXPECT_EQ(selectDevice("auto", { cpu, other, gpu }).index, 2);
  EXPECT_EQ(selectDevice("auto", { other, cpu }).index, 0);
  EXPECT_EQ(selectDevice("auto", { other }).index, 1);
}

TEST(Devices, UnknownDeviceIsAClearError)
{
  for (const char* selector : { "no-such-device", "99", "12345678901234567890" })
  {
    try
    {
      selectDevice(selector);
      FAIL() << "selecting '" << selector << "' should throw";
    }
    catch (const Error& e)
    {
      const std::string message = e.what();
      EXPECT_NE(
        message.find(std::string("unknown OpenCL device '") + selector + "'"), std::string::npos)
        << message;
      EXPECT_NE(message.find("devices found"), std::string::npos) << message;
    }
  }
  EXPECT_THROW(selectDevice("auto", {}), Error);
}

TEST(Devices, DoubleWithoutFp64IsAClearError)
{
  DeviceInfo d;
  d.name = "tiny gpu";
  d.fp64 = false;
  try
  {
    requireDouble(d);
    FAIL();
  }
  catch (const Error& e)
  {
    EXPECT_NE(
      std::string(e.what()).find("'tiny gpu' does not support cl_khr_fp64"), std::string::npos);
  }
  d.fp64 = true;
  EXPECT_NO_THROW(requireDouble(d));
}

TEST(Devices, LabelsSelectTheirDevice)
{
  for (const auto& d : listDevices())
    EXPECT_EQ(selectDevice(d.label()).index, d.index) << d.label();
}

TEST(HostMemory, TheAvailableMemoryIsReadAndBoundedByTheMachine)
{
  const std::uint64_t available = availableHostMemory();
  ASSERT_GT(available, 0u) << "/proc/meminfo unreadable";
  const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
  EXPECT_LE(available, static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(pageSize));
}

TEST(HostMemory, ARunPastTheHostMemoryIsRefusedWithItsParts)
{
  // A grid the device takes, and what a caller keeps per cell twice what this process can count
  // on: refused before anything is allocated, the parts and a grid that fits named.
  SimulationParameters p;
  p.nx = p.ny = 1000;
  const std::uint64_t perCell = 2 * availableHostMemory() / 1000000 + 1;
  try
  {
    Simulation::check(p, false, { { "frames", perCell } });
    FAIL() << "a run needing twice the host memory passed the check";
  }
  catch (const Error& e)
  {
    const std::string message = e.what();
    for (const char* part : { "grid 1000 x 1000 needs ",
           " of host memory (",
           "download copy ",
           "frames ",
           "building the kernels 0.50 GiB) but this process can count on ",
           ": use fewer cells (about " })
      EXPECT_NE(message.find(part), std::string::npos) << part << " in: " << message;
  }
  // The same with a tenth of it per cell fits.
  EXPECT_NO_THROW(Simulation::check(p, false, { { "frames", perCell / 20 } }));
}
