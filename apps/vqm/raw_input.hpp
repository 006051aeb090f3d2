// Raw .yuv input: libvmaf's -w/-h/-p/-b flags and the picture format they describe; -p also takes pixel
// format names (nv12, p010, yuv420p10le, ...: vqm/picture.hpp's pixel_formats), which imply the depth.
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

// -p: libvmaf's chroma formats (-b gives the depth), or a pixel format name that implies it (nv12, p010).
inline const CLI::Validator pixel_format_name_check(
    [](std::string& s) -> std::string {
      if (s == "420" || s == "422" || s == "444" || s == "400" || find_pixel_format(s)) return {};
      std::string known;
      for (const auto& n : pixel_formats) {
        known += known.empty() ? "" : ", ";
        known += n.name;
      }
      std::string why = "'";
      why += s;
      why += "' is not a pixel format (420, 422, 444, 400, or one of ";
      why += known;
      why += ")";
      return why;
    },
    "", "PIXEL_FORMAT");

inline void add_raw_options(CLI::App& app, raw_options& o) {
  app.add_option("-w,--width", o.width, "Raw input: width in samples")->check(non_negative);
  app.add_option("-h,--height", o.height, "Raw input: height in samples")->check(non_negative);
  app.add_option("-p,--pixel_format", o.pixel_format,
                 "Raw input: 420, 422, 444 or 400 (with -b), or a pixel format that implies the depth: nv12, nv21, "
                 "nv16, nv24, nv42, p010, p012, p016, p210, p410, yuv420p10le, gray12le, ...")
      ->check(pixel_format_name_check);
  app.add_option("-b,--bitdepth", o.bitdepth, "Raw input: bits per sample: 8, 10, 12 or 16")
      ->check(non_negative)
      ->check(CLI::IsMember({8u, 10u, 12u, 16u}));
}

// The raw format the flags describe; none when no raw flag is given (inputs then carry their format).
[[nodiscard]] inline std::optional<picture_format> raw_format(const raw_options& o, const CLI::App& app) {
  const bool any = app.count("-w") || app.count("-h") || app.count("-p") || app.count("-b");
  if (!any) return std::nullopt;
  const pixel_format_name* named = app.count("-p") ? find_pixel_format(o.pixel_format) : nullptr;
  if (!(app.count("-w") && app.count("-h") && app.count("-p") && (app.count("-b") || named)))
    throw error(errc::invalid_argument, "raw .yuv input needs all of -w, -h, -p and -b (-b may be left out when -p "
                                        "names a pixel format such as nv12 or p010)");
  picture_format f;
  if (named) {
    f = make_format(*named, o.width, o.height);
    if (app.count("-b") && o.bitdepth != f.bit_depth) {
      std::string why = "-p ";  // appended piece by piece: GCC 12 -O3 misreads "lit" + std::string (-Wrestrict)
      why += o.pixel_format;
      why += " is ";
      why += std::to_string(f.bit_depth);
      why += "-bit but -b is ";
      why += std::to_string(o.bitdepth);
      why += " (leave -b out, or give -b ";
      why += std::to_string(f.bit_depth);
      why += ")";
      throw error(errc::invalid_argument, why);
    }
  } else {
    f.width = o.width;
    f.height = o.height;
    f.bit_depth = o.bitdepth;
    f.chroma = o.pixel_format == "420"   ? chroma_format::yuv420
               : o.pixel_format == "422" ? chroma_format::yuv422
               : o.pixel_format == "444" ? chroma_format::yuv444
                                         : chroma_format::yuv400;
  }
  io::check_geometry("-w " + std::to_string(o.width) + " -h " + std::to_string(o.height), f);
  return f;
}

}  // namespace vqm::cli
