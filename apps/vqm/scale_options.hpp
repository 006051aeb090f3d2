// --scale MODE and --scale-to ref|dis|WxH: inputs of different sizes scaled with libswscale (the
// vqm::ffmpeg component, vqm/io/ffmpeg_scale.hpp) before they are compared. See docs/scaling.md.
//
//   --scale MODE               the distorted is scaled to the reference's size (when they differ)
//   --scale-to ref             the same, with bicubic unless --scale gives the mode
//   --scale-to dis             the reference is scaled to the distorted's size
//   --scale-to WxH             both are scaled to W x H (an input of that size already is left alone)
//
// Without either flag, inputs of different sizes stay an error naming both (run.hpp).
#pragma once

#include <charconv>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "vqm/error.hpp"
#include "vqm/io/frame_source.hpp"
#include "vqm/io/limits.hpp"
#if defined(VQM_WITH_FFMPEG)
#include "vqm/io/ffmpeg_scale.hpp"
#endif

namespace vqm::cli {

struct scale_options {
  std::string mode;  // --scale: bicubic, bilinear, ...; empty: not given
  std::string to;    // --scale-to: ref, dis or WxH; empty: not given
};

// "1920x1080" -> {1920, 1080}; nothing for anything else (signs, spaces, zero, missing parts).
[[nodiscard]] inline std::optional<std::pair<std::uint32_t, std::uint32_t>> parse_size(const std::string& s) {
  const auto x = s.find('x');
  if (x == std::string::npos || x == 0 || x + 1 == s.size()) return std::nullopt;
  std::uint32_t w = 0, h = 0;
  const char* b = s.data();
  const char* e = b + s.size();
  const auto rw = std::from_chars(b, b + x, w);
  const auto rh = std::from_chars(b + x + 1, e, h);
  if (rw.ec != std::errc() || rw.ptr != b + x || rh.ec != std::errc() || rh.ptr != e || w == 0 || h == 0)
    return std::nullopt;
  return std::pair{w, h};
}

inline void add_scale_options(CLI::App& app, scale_options& o) {
#if defined(VQM_WITH_FFMPEG)
  const std::string modes = io::scale_mode_names();
  std::string help = "Scale the distorted to the reference's size with MODE (libswscale, as ffmpeg -vf "
                     "scale=W:H:flags=MODE+accurate_rnd+bitexact; see docs/scaling.md): ";
  help += modes;
  app.add_option("--scale", o.mode, help)
      ->check(CLI::Validator(
          [modes](std::string& s) -> std::string {
            if (io::parse_scale_mode(s)) return {};
            std::string why = "unknown scaling mode '";
            why += s;
            why += "' (use one of: ";
            why += modes;
            why += ")";
            return why;
          },
          "MODE", "SCALE_MODE"));
#else
  app.add_option("--scale", o.mode, "Scale the distorted to the reference's size (needs vqm built with FFmpeg)");
#endif
  app.add_option("--scale-to", o.to,
                 "With --scale (default mode bicubic): ref (default), dis (scale the reference to the distorted's "
                 "size) or WxH (scale both)")
      ->check(CLI::Validator(
          [](std::string& s) -> std::string {
            if (s == "ref" || s == "dis" || parse_size(s)) return {};
            std::string why = "'";
            why += s;
            why += "' is not ref, dis or a size WxH such as 1920x1080";
            return why;
          },
          "ref|dis|WxH", "SCALE_TO"));
}

// Wraps the inputs in scaling sources as the flags ask (nothing without them). Throws vqm::error.
inline void apply_scaling(const scale_options& o, std::unique_ptr<io::frame_source>& ref,
                          std::unique_ptr<io::frame_source>& dis) {
  if (o.mode.empty() && o.to.empty()) return;
#if defined(VQM_WITH_FFMPEG)
  const auto mode = o.mode.empty() ? std::optional(io::scale_mode::bicubic) : io::parse_scale_mode(o.mode);
  if (!mode) {
    std::string why = "--scale ";
    why += o.mode;
    why += ": unknown mode (use one of: ";
    why += io::scale_mode_names();
    why += ")";
    throw error(errc::invalid_argument, why);
  }
  const std::string to = o.to.empty() ? "ref" : o.to;
  std::string flag = "--scale-to ";  // for messages
  flag += to;
  if (to == "ref") {
    dis = io::make_scaled_source(std::move(dis), ref->format().width, ref->format().height, *mode);
  } else if (to == "dis") {
    ref = io::make_scaled_source(std::move(ref), dis->format().width, dis->format().height, *mode);
  } else {
    const auto size = parse_size(to);
    if (!size) throw error(errc::invalid_argument, flag + ": expected ref, dis or a size WxH such as 1920x1080");
    picture_format f = ref->format();
    f.width = size->first;
    f.height = size->second;
    io::check_geometry(flag, f);
    ref = io::make_scaled_source(std::move(ref), size->first, size->second, *mode);
    dis = io::make_scaled_source(std::move(dis), size->first, size->second, *mode);
  }
#else
  (void)ref;
  (void)dis;
  throw error(errc::invalid_argument, std::string(o.mode.empty() ? "--scale-to" : "--scale") +
                                          " needs vqm built with FFmpeg's libraries (-DVQM_FFMPEG=ON; libswscale scales)");
#endif
}

// Several distorted (-d a -d b): the reference is scaled at most once (--scale-to WxH), each distorted as
// in a run of its own pair. --scale-to dis is refused: the one reference cannot take each distorted's size.
inline void apply_scaling(const scale_options& o, std::unique_ptr<io::frame_source>& ref,
                          std::vector<std::unique_ptr<io::frame_source>>& dis) {
  if (dis.size() > 1 && o.to == "dis")
    throw error(errc::invalid_argument, "--scale-to dis with several -d: the reference is scaled once, so give the "
                                        "size (--scale-to WxH) or score each distorted on its own");
  for (std::size_t k = 0; k < dis.size(); ++k) {
    scale_options rest = o;  // after the first: the reference has its final size, only the distorted scale
    if (k > 0 && !o.to.empty()) rest.to = "ref";
    apply_scaling(rest, ref, dis[k]);
  }
}

}  // namespace vqm::cli
