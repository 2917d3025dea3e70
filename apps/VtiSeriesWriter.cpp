#include "VtiSeriesWriter.h"

#include "Error.h"
#include "FrameImage.h"

#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkXMLImageDataWriter.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

namespace swe
{
VtiSeriesWriter::VtiSeriesWriter(const std::string& directory,
  const std::string& name,
  const std::array<double, 3>& origin,
  const FrameArraySelection& selection)
  : directory_(directory)
  , name_(name)
  , origin_(origin)
  , selection_(selection)
{
  std::error_code ec;
  std::filesystem::create_directories(directory_, ec);
  if (ec)
    throw Error("cannot create output directory '" + directory_ + "': " + ec.message());
}

std::string VtiSeriesWriter::seriesPath() const
{
  return directory_ + "/" + name_ + ".pvd";
}

void VtiSeriesWriter::write(Simulation& simulation, double nextTime)
{
  char file[64];
  std::snprintf(file, sizeof(file), "%s_%05zu.vti", name_.c_str(), files_.size());
  vtkNew<vtkImageData> image;
  // Made before the advance starts (the first file downloads the bed), filled as the state
  // arrives, as the plugin does.
  FrameImage frame(simulation, image, origin_.data(), &arrays_, selection_);
  const StateView state = simulation.downloadStateThenAdvance(nextTime,
    [&](const StateView& arriving, const RowsWait& waitForRows)
    { frame.fill(arriving, waitForRows); });
  vtkNew<vtkXMLImageDataWriter> writer;
  writer->SetFileName((directory_ + "/" + file).c_str());
  writer->SetInputData(image);
  // Inline (not appended) data: Debian 12's expat with reparse deferral breaks VTK 9.2's
  // reader on raw appended sections with long headers (see docs/USER_GUIDE.md).
  writer->SetDataModeToBinary();
  writer->SetCompressorTypeToZLib();
  if (writer->Write() != 1)
    throw Error("cannot write '" + directory_ + "/" + file + "'");
  files_.emplace_back(state.time, file);
  writeCollection();
}

void VtiSeriesWriter::writeCollection() const
{
  std::ofstream out(seriesPath());
  out.precision(15); // enough to tell outputs apart, short enough to read
  out << "<?xml version=\"1.0\"?>\n"
      << "<VTKFile type=\"Collection\" version=\"0.1\">\n  <Collection>\n";
  for (const auto& [time, file] : files_)
    out << "    <DataSet timestep=\"" << time << "\" part=\"0\" file=\"" << file << "\"/>\n";
  out << "  </Collection>\n</VTKFile>\n";
  if (!out)
    throw Error("cannot write '" + seriesPath() + "'");
}
} // namespace swe
