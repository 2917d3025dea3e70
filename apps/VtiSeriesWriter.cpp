#include "VtiSeriesWriter.h"

#include "AtomicFile.h"
#include "Error.h"
#include "FrameImage.h"

#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkXMLImageDataWriter.h>

#include <algorithm>
#include <cstdio>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>

namespace swe
{
// The .vti file of image, made in memory: written with the project's own atomic write, whose
// failure says why (VTK's writer leaves an empty or cut file on a full disk and says nothing).
std::string xmlImage(vtkImageData* image)
{
  vtkNew<vtkXMLImageDataWriter> writer;
  writer->SetInputData(image);
  writer->WriteToOutputStringOn();
  // Inline (not appended) data: Debian 12's expat with reparse deferral breaks VTK 9.2's
  // reader on raw appended sections with long headers (see docs/USER_GUIDE.md).
  writer->SetDataModeToBinary();
  writer->SetCompressorTypeToZLib();
  std::string bytes = writer->Write() == 1 ? writer->GetOutputString() : std::string();
  if (bytes.empty())
    throw Error("VTK could not make the image file of a frame");
  return bytes;
}

VtiSeriesWriter::VtiSeriesWriter(const std::string& directory,
  const std::string& name,
  const std::array<double, 3>& origin,
  const FrameArraySelection& selection,
  const Partition* partition,
  RankExchange* ranks)
  : directory_(directory)
  , name_(name)
  , origin_(origin)
  , selection_(selection)
  , partition_(partition)
  , ranks_(ranks)
{
  std::error_code ec;
  std::filesystem::create_directories(directory_, ec);
  if (ec)
    throw Error("cannot create output directory '" + directory_ + "': " + ec.message());
}

void VtiSeriesWriter::continueAt(double time, const std::string& frameFile)
{
  files_.clear();
  // (a frame of this series keeps its number: a run restarted into another directory numbers
  // its files as the run it continues did)
  const std::regex numbered(name_ + "_([0-9]{5,9})\\.(vti|pvti)");
  std::smatch m;
  const std::filesystem::path frame(frameFile);
  const std::string frameName = frame.filename().string();
  const long frameNumber = std::regex_match(frameName, m, numbered) ? std::stol(m[1].str()) : -1;
  std::error_code ec;
  const bool frameHere =
    frameNumber >= 0 && std::filesystem::equivalent(
                          frame.parent_path().empty() ? "." : frame.parent_path(), directory_, ec);
  nextNumber_ = std::max(0L, frameNumber);
  // The series written here before, as its .pvd lists it: its files before the frame that are
  // still here stay listed (by number where the frame is one of them, else by time: the .pvd's
  // times are rounded), and the new files are numbered after them, whatever the output times of
  // either run (files of the earlier run from the frame on are its future, replaced).
  std::ifstream pvd(seriesPath());
  const std::string text((std::istreambuf_iterator<char>(pvd)), std::istreambuf_iterator<char>());
  const std::regex entry("<DataSet[^>]*timestep=\"([^\"]+)\"[^>]*file=\"([^\"]+)\"");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), entry);
       it != std::sregex_iterator();
       ++it)
  {
    const std::string file = (*it)[2].str();
    std::smatch n;
    if (!std::regex_match(file, n, numbered) || !std::filesystem::exists(directory_ + "/" + file))
      continue;
    const double t = std::strtod((*it)[1].str().c_str(), nullptr);
    const long number = std::stol(n[1].str());
    if (frameHere ? number >= frameNumber : !(t < time - 1e-9 * std::max(1.0, std::fabs(time))))
      continue;
    files_.emplace_back(t, file);
    nextNumber_ = std::max(nextNumber_, number + 1);
  }
}

std::string VtiSeriesWriter::seriesPath() const
{
  return directory_ + "/" + name_ + ".pvd";
}

void VtiSeriesWriter::write(Simulation& simulation, double nextTime)
{
  char stem[64];
  std::snprintf(stem, sizeof(stem), "%s_%05ld", name_.c_str(), nextNumber_++);
  const std::string file = partition_
                             ? std::string(stem) + "_" + std::to_string(partition_->rank) + ".vti"
                             : std::string(stem) + ".vti";
  vtkNew<vtkImageData> image;
  // Made before the advance starts (the first file downloads the bed), filled as the state
  // arrives, as the plugin does.
  FrameImage frame(simulation, image, origin_.data(), &arrays_, selection_);
  if (balance_)
    frame.setBalance(balance_->first, balance_->second);
  const StateView state = simulation.downloadStateThenAdvance(nextTime,
    [&](const StateView& arriving, const RowsWait& waitForRows)
    { frame.fill(arriving, waitForRows); });
  if (partition_)
  {
    // The piece where its block lies in the whole grid (the same origin and spacing).
    const Block& b = partition_->block();
    image->SetExtent(b.x0, b.x0 + b.nx, b.y0, b.y0 + b.ny, 0, 0);
  }
  // Every rank's piece is complete before rank 0 lists it; a rank that fails stops them all.
  runAgreed(ranks_, [&] { writeFileAtomically(directory_ + "/" + file, xmlImage(image)); });
  if (partition_ && partition_->rank != 0)
  {
    files_.emplace_back(state.time, file); // (counted; rank 0 writes the .pvd)
    return;
  }
  if (partition_)
  {
    writePieceSummary(stem, image);
    files_.emplace_back(state.time, std::string(stem) + ".pvti");
  }
  else
    files_.emplace_back(state.time, file);
  writeCollection();
}

void VtiSeriesWriter::writePieceSummary(const std::string& stem, vtkImageData* image) const
{
  std::ostringstream out;
  out.precision(17);
  const double dx = image->GetSpacing()[0];
  out << "<?xml version=\"1.0\"?>\n"
      << "<VTKFile type=\"PImageData\" version=\"0.1\" byte_order=\"LittleEndian\" "
         "header_type=\"UInt64\">\n"
      << "  <PImageData WholeExtent=\"0 " << partition_->gridNx << " 0 " << partition_->gridNy
      << " 0 0\" GhostLevel=\"0\" Origin=\"" << origin_[0] << " " << origin_[1] << " " << origin_[2]
      << "\" Spacing=\"" << dx << " " << dx << " " << dx << "\">\n"
      << "    <PCellData>\n";
  vtkCellData* cells = image->GetCellData();
  for (int a = 0; a < cells->GetNumberOfArrays(); ++a)
  {
    vtkDataArray* array = cells->GetArray(a);
    out << "      <PDataArray type=\""
        << (array->GetDataType() == VTK_DOUBLE ? "Float64" : "Float32") << "\" Name=\""
        << array->GetName() << "\" NumberOfComponents=\"" << array->GetNumberOfComponents()
        << "\"/>\n";
  }
  out << "    </PCellData>\n";
  for (int r = 0; r < partition_->ranks(); ++r)
  {
    const Block& b = partition_->blocks[static_cast<std::size_t>(r)];
    out << "    <Piece Extent=\"" << b.x0 << " " << b.x0 + b.nx << " " << b.y0 << " " << b.y0 + b.ny
        << " 0 0\" Source=\"" << stem << "_" << r << ".vti\"/>\n";
  }
  out << "  </PImageData>\n</VTKFile>\n";
  writeFileAtomically(directory_ + "/" + stem + ".pvti", out.str());
}

std::string pvdCollection(const std::vector<std::pair<double, std::string>>& files)
{
  std::ostringstream out;
  out.precision(15); // enough to tell outputs apart, short enough to read
  out << "<?xml version=\"1.0\"?>\n"
      << "<VTKFile type=\"Collection\" version=\"0.1\">\n  <Collection>\n";
  for (const auto& [time, file] : files)
    if (!file.empty())
      out << "    <DataSet timestep=\"" << time << "\" part=\"0\" file=\"" << file << "\"/>\n";
  out << "  </Collection>\n</VTKFile>\n";
  return out.str();
}

void VtiSeriesWriter::writeCollection() const
{
  writeFileAtomically(seriesPath(), pvdCollection(files_));
}
} // namespace swe
