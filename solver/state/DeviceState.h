#pragma once
// The device state. h, hu, hv as structure of arrays in two copies used ping-pong (thesis 4.5.8: no
// copy-back), the bed (relative to the local datum), when given the Manning field, and when kept
// the flood maps (FloodMaps.h); each laid out as GridLayout says. Moves the state between the host
// and the device (upload, interior reads and writes, packed copies on the device for snapshots and
// frames) and fills the ghost cells (kernels/state/boundary.cl).
#include "DeviceProgram.h"
#include "DryTiles.h"
#include "FloodMaps.h"
#include "Gauges.h"
#include "GridLayout.h"
#include "InitialState.h"
#include "OpenCL.h"
#include "PointSources.h"
#include "RankCoupling.h"
#include "SimulationTypes.h"

#include <array>
#include <optional>
#include <tuple>

namespace swe
{
// What a ghost fill trades with the other ranks of a split run: nothing (a step inside an
// exchange interval), the state (with the cumulative infiltration, where an overlap holds its
// neighbours' cells), or the bed too (a state loaded).
enum class Halo
{
  None,
  State,
  StateAndBed
};

class DeviceState
{
public:
  // One copy of the conserved variables.
  struct Copy
  {
    cl::Buffer h, hu, hv;
    // The three as kernel arguments in a row (KernelArgs).
    auto args() const { return std::tie(h, hu, hv); }
  };

  // Allocates the buffers (uninitialised: upload() fills them), the flood maps' among them where
  // engine.params.floodMaps.
  DeviceState(const EngineContext& engine,
    const GridLayout& layout,
    bool perCellManning,
    double datum);

  const GridLayout& layout() const { return layout_; }
  const Copy& copy(int p) const { return copies_[p]; }
  const cl::Buffer& bed() const { return bed_; }
  // The tiles' flags for skipping dry land (placeholders without).
  const DryTiles& tiles() const { return tiles_; }
  // The per-cell Manning coefficients, or a placeholder argument without them.
  const cl::Buffer& manningField() const { return manningField_; }
  // The current state's buffer of a field (the bed's for Field::Bed, a flood map's for theirs).
  const cl::Buffer& field(Field field) const;
  // The fields a state carries: h, hu, hv and, where kept, the flood maps (StateView::fields).
  int fieldCount() const { return kStateFields + static_cast<int>(kept_.size()); }
  // The ghost fill (a side's series), the flood maps' fold and the gauges' sampling read the
  // time, the step's dt and the step count from the clock's buffers. Once, before the first ghost
  // fill.
  void bindClock(const cl::Buffer& ctrl, const cl::Buffer& status);
  // Queues what follows a step that wrote copy p (step), or the state at t = 0 (uploaded): the
  // point sources' water over the step (kernels/state/sources.cl; a step only), then the fold into
  // the flood maps (FloodMaps::fold; the state at t = 0 only, where the steps fold them) and the
  // gauges' sample, where the run has them.
  void afterStep(int p, bool step = true) const;
  // After a batch of steps whose newest state is copy p: where the steps fold the flood maps,
  // that state's fold (FloodMaps::settle). Else nothing.
  void afterBatch(int p) const;
  // The flood maps as the steps' kernel arguments (placeholders without them).
  auto mapArgs() const
  {
    return maps_ ? maps_->args() : std::tie(noMaps_, noMaps_, noMaps_, noMaps_, noMaps_);
  }
  // With the water balance, queues the fold of what the step that reads copy p moves through the
  // grid's sides into the Inflow field (kernels/state/boundary_inflow.cl): after a Lax-Friedrichs
  // step, between MUSCL-Hancock's passes, before each of MUSCL-HLLC's stages. Else nothing.
  void foldBoundaryInflow(int p) const;
  // The gauges (null without): collected by the facade as it reads the clock.
  Gauges* gauges() { return gauges_ ? &*gauges_ : nullptr; }
  // After a snapshot of step `steps` was written into copy 0 and the clock restarted there: the
  // gauges' record becomes the snapshot's (`record`), or without one is cut back to it and its
  // sample taken again (its maps have it already).
  void restoredAt(std::int64_t steps, const GaugeRecord& record);

  // Which copy holds the state. The steppers flip it as they queue steps; for two steps a
  // launch the device keeps it and DeviceClock::read takes it back.
  int parity = 0;

  // The bed, the roughness field and the state at t = 0 into copy 0 (copy 1 zero, ghosts and
  // padding included: the lanes past the grid of a CPU-shaped kernel read them, and never store
  // what they give). Waits for the uploads.
  void upload(const InitialState& initial);
  // Both copies zero (before a snapshot is restored into copy 0).
  void clear();
  // Queues the ghost cells of copy p (kernels/state/boundary.cl); in a run split among ranks, then
  // exchanges the halo of copy p as asked (waiting for the device).
  void fillGhosts(int p, Halo halo = Halo::State);
  // In a run split among ranks (couple()), the halo of copy p as asked; else nothing.
  void exchangeHalo(int p, Halo halo = Halo::State);
  // The other ranks' halos and gauges, from here on (not owned; null: a run on one rank).
  void couple(RankCoupling* coupling);
  // Whether the halo of a step's state may go out before the step has updated every cell
  // (RankCoupling::sendEarly): in a split run whose steps change nothing after the step's
  // kernel (no point sources, no Green-Ampt) and trade nothing but the state, where every rank
  // can (`here`: its steps can). Every rank of a split run calls it, at the same point.
  bool sendsHaloEarly(bool here) const;
  // The cells this rank sends its neighbours, in its grid's coordinates (none on one rank).
  std::vector<CellRect> haloSent() const;
  // The halo of copy p, once the launches that write its cells are queued, sent while the rest
  // of the step runs (sendHaloEarly queues its packing; completeHaloEarly trades it).
  void sendHaloEarly(int p);
  void completeHaloEarly();

  // The state's fields (fieldCount()) of the interior cells into out, packed one field after the
  // other: the copies queued at once, one wait.
  void read(unsigned char* out, std::vector<unsigned char>* lowParts = nullptr) const;
  // The reverse of read, into copy 0 (and the maps).
  void write(const unsigned char* in, const std::vector<unsigned char>& lowParts = {});
  // The current state's interior copied on the device into to, packed as read() writes it, from
  // field firstField on; done, when given, marks the last copy.
  void pack(const cl::Buffer& to, cl::Event* done = nullptr, int firstField = 0) const;
  // The reverse of pack, into copy 0 (and the maps).
  void unpack(const cl::Buffer& from);
  // The bytes of the fp32 water balance's Inflow low parts (kernels/device/compensated.h; 0
  // where the run has none), which a snapshot keeps beside the state for its bits: read and
  // write take them apart, pack and unpack after the fields where the buffer has room for them
  // (else write and unpack zero them).
  std::size_t lowPartBytes() const;
  // A field's interior values in Out, the bed back above the local datum (rounded once).
  void download(Field field, double* out) const;
  void download(Field field, float* out) const;
  // h, hu, hv of the current state at interior cell (i, j).
  std::array<double, 3> cellValues(int i, int j) const;

private:
  template<class Device>
  void uploadWholeAs(const cl::Buffer& buffer,
    const std::vector<double>& values,
    double offset,
    std::size_t atByte);
  // values - offset into buffer from byte atByte, laid out as a field.
  void uploadWhole(const cl::Buffer& buffer,
    const std::vector<double>& values,
    double offset = 0,
    std::size_t atByte = 0);
  template<class T>
  void readInterior(const cl::Buffer& buffer, T* values, cl_bool blocking = CL_TRUE) const;
  template<class Out>
  void readConverted(const cl::Buffer& buffer, Out* out) const;
  template<class Out>
  void downloadField(Field field, Out* out) const;
  // Field f of the state (stateFields(params)[f]): of copy p for h, hu, hv.
  const cl::Buffer& stateBuffer(int f, int p) const;
  // Zeroes the Inflow totals' low parts (inflowLow_), for a state loaded.
  void clearInflowLow() const;

  cl::CommandQueue& queue_;
  const SimulationParameters& params_;
  GridLayout layout_;
  bool perCellManning_;
  double datum_;
  std::array<Copy, 2> copies_;
  cl::Buffer bed_, manningField_;
  std::array<cl::Kernel, 2> fillGhosts_; // one per copy, bound once
  std::optional<FloodMaps> maps_;
  bool stepsFoldMaps_;
  cl::Buffer noMaps_; // the maps' placeholder argument, without them
  std::optional<Gauges> gauges_;
  std::optional<PointSources> sources_;  // none without point sources
  cl::Buffer infiltrated_;               // the cumulative infiltration, with Green-Ampt
  cl::Buffer soil_;                      // a soil map's K and P (GreenAmpt::perCell)
  std::array<cl::Kernel, 2> infiltrate_; // one per copy; none without Green-Ampt
  cl::Buffer inflow_;                    // the cumulative inflow, with the water balance
  // Its totals' low parts in fp32 (kernels/device/compensated.h), device-only: zero again
  // wherever a state is loaded, which then loses at most half an ulp of each total.
  cl::Buffer inflowLow_;
  std::array<cl::Kernel, 2> foldInflow_; // one per copy; none without it
  // The state's fields after h, hu, hv, as stateFields orders them.
  std::vector<const cl::Buffer*> kept_;
  RankCoupling* coupling_ = nullptr;
  DryTiles tiles_;
};
} // namespace swe
