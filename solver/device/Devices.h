#pragma once
// OpenCL device discovery and selection, without exposing OpenCL types.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace swe
{
struct DeviceInfo
{
  int index = -1; // position in listDevices(), stable for one machine
  std::string platform;
  std::string name;
  std::string type; // "GPU", "CPU", "accelerator", "other"
  std::uint64_t globalMemory = 0;
  std::uint64_t maxAllocation = 0;
  std::uint64_t localMemory = 0;
  std::size_t maxWorkGroupSize = 0;
  int computeUnits = 0;
  bool fp64 = false;

  // One line for listings: index, platform, device, type, memory, fp64.
  std::string summary() const;
  // Short label for menus, "1: NVIDIA H200 (GPU)"; selectDevice() accepts it back.
  std::string label() const;
};

// Every device of every platform; empty when no OpenCL platform is installed.
std::vector<DeviceInfo> listDevices();

// Resolves "auto" (first GPU, else first CPU, else the first device), an index ("0", or a
// label() such as "0: name (CPU)"), or a
// case-insensitive substring of the device or platform name. Throws swe::Error listing the
// devices found when nothing matches.
DeviceInfo selectDevice(const std::string& selector);
DeviceInfo selectDevice(const std::string& selector, const std::vector<DeviceInfo>& devices);

// The device selector of one rank of a run split among ranks: "auto" becomes the index of the
// node-local rank's turn among the devices of the type "auto" picks (GPU, else CPU), so that the
// ranks on one node take different GPUs and share them only when they outnumber them; any other
// selector is returned as it is.
std::string deviceSelectorForRank(const std::string& selector, int nodeLocalRank);
// PoCL, the CPU driver, keeps compiled kernels in a cache directory ($POCL_CACHE_DIR, else
// $XDG_CACHE_HOME/pocl/kcache, else $HOME/.cache/pocl/kcache); where it cannot write there it
// reports no device, or fails every build, without saying why. A sentence naming the directory,
// where its path comes from, the reason and the fix, when PoCL is installed (the first) or is the
// device's platform (the second) and the directory cannot be written; else "".
std::string poclCacheProblem();
std::string poclCacheProblem(const DeviceInfo& device);
// Why no OpenCL device is found, as a sentence with the fix: PoCL's cache (poclCacheProblem),
// an address-space limit (ulimit -v) too small for the installed driver to load, or no driver.
std::string noDeviceProblem();

// An OpenCL context on one device that several simulations share (an ensemble's members): a GPU
// time-slices the kernels of different contexts, while the queues of one context may run theirs
// side by side. Opaque outside the engine (DeviceContext.h).
class DeviceContext;
// Throws swe::Error (OpenCL's failure named) where the context cannot be made.
std::shared_ptr<DeviceContext> shareDevice(const DeviceInfo& device);

// Throws swe::Error unless the device can run in double precision.
void requireDouble(const DeviceInfo& device);
} // namespace swe
