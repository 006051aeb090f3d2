// Raw .yuv input: libvmaf's -w/-h/-p/-b flags and the picture format they describe.
#pragma once

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "checks.hpp"
#include "vqm/error.hpp"
#include "vqm/io/limits.hpp"
#include "vqm/picture.hpp"

namespace vqm::cli {

struct raw_options {
  unsigned width = 0, height = 0, bitdepth = 0;
  std::string pixel_format;
};

inline void add_raw_options(CLI::App& app, raw_options& o) {
  app.add_option("-w,--width", o.width, "Raw input: width in samples")->check(non_negative);
  app.add_option("-h,--height", o.height, "Raw input: height in samples")->check(non_negative);
  app.add_option("-p,--pixel_format", o.pixel_format, "Raw input: 420, 422, 444 or 400")
      ->check(CLI::IsMember({"420", "422", "444", "400"}));
  app.add_option("-b,--bitdepth", o.bitdepth, "Raw input: bits per sample: 8, 10, 12 or 16")
      ->check(CLI::IsMember({8u, 10u, 12u, 16u}));
}

// The raw format the flags describe; none when no raw flag is given (inputs then carry their format).
[[nodiscard]] inline std::optional<picture_format> raw_format(const raw_options& o, const CLI::App& app) {
  const bool any = app.count("-w") || app.count("-h") || app.count("-p") || app.count("-b");
  if (!any) return std::nullopt;
  if (!(app.count("-w") && app.count("-h") && app.count("-p") && app.count("-b")))
    throw error(errc::invalid_argument, "raw .yuv input needs all of -w, -h, -p and -b");
  picture_format f;
  f.width = o.width;
  f.height = o.height;
  f.bit_depth = o.bitdepth;
  f.chroma = o.pixel_format == "420"   ? chroma_format::yuv420
             : o.pixel_format == "422" ? chroma_format::yuv422
             : o.pixel_format == "444" ? chroma_format::yuv444
                                       : chroma_format::yuv400;
  io::check_geometry("-w " + std::to_string(o.width) + " -h " + std::to_string(o.height), f);
  return f;
}

}  // namespace vqm::cli
