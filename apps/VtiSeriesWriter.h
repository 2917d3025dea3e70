#pragma once
// Writes a simulation's outputs as VTK XML image files plus a .pvd collection that ParaView opens
// as one time series.
#include "FrameArrays.h"
#include "Partition.h"
#include "RankExchange.h"
#include "Simulation.h"

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

class vtkImageData;

namespace swe
{
// The .vti file of image, made in memory (to be written with writeFileAtomically). Throws
// swe::Error where VTK cannot make it.
std::string xmlImage(vtkImageData* image);
// The .pvd collection that lists files (time, name; an empty name is left out) as one series.
std::string pvdCollection(const std::vector<std::pair<double, std::string>>& files);

class VtiSeriesWriter
{
public:
  // Creates directory if needed; the series is directory/<name>.pvd; images start at origin and
  // hold the arrays selected.
  // In a run split among ranks (partition given), each rank writes its block as a piece,
  // <name>_<output>_<rank>.vti, and rank 0 the .pvti that joins them and the .pvd, once every
  // rank's piece is written (agreed among ranks).
  // Every file is written whole under a temporary name, then renamed: the .pvd lists only
  // complete files, and a failed write throws swe::Error naming the file and the cause.
  VtiSeriesWriter(const std::string& directory,
    const std::string& name,
    const std::array<double, 3>& origin = { 0, 0, 0 },
    const FrameArraySelection& selection = {},
    const Partition* partition = nullptr,
    RankExchange* ranks = nullptr);
  // Writes the next file from the simulation's state now; with nextTime past now the device
  // takes the steps to nextTime while the file is made (Simulation::downloadStateThenAdvance).
  void write(Simulation& simulation, double nextTime);
  // A run continued at `time` from frameFile, a frame of an earlier run: its files take the
  // frame's number on (name_NNNNN.vti), and where that run wrote here, the series keeps its
  // files before that time and the new ones are numbered after them (none written over),
  // whatever the output times of either run.
  void continueAt(double time, const std::string& frameFile);
  // A run that keeps the water balance: each frame's field data gives it from this initial
  // volume and these rained cells (BalanceLog, FrameImage::setBalance).
  void keepBalance(double initial, const RainedCells& rainedCells)
  {
    balance_ = { initial, rainedCells };
  }
  std::string seriesPath() const;

private:
  void writeCollection() const;
  // The .pvti of output `stem` (rank 0), its arrays declared as image holds them.
  void writePieceSummary(const std::string& stem, vtkImageData* image) const;
  std::string directory_, name_;
  std::array<double, 3> origin_;
  std::vector<std::pair<double, std::string>> files_;
  long nextNumber_ = 0; // the next file's number
  // The arrays of the last file, refilled for the next (the bed is downloaded once).
  FrameArrays arrays_;
  FrameArraySelection selection_;
  const Partition* partition_;
  RankExchange* ranks_;
  std::optional<std::pair<double, RainedCells>> balance_;
};
} // namespace swe
