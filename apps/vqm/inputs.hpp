// The inputs opened for a run: the reference and each distorted, their decoder's notes shown, scaled
// (--scale) and brought to one bit depth.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "input_notes.hpp"
#include "options.hpp"
#include "run.hpp"
#include "scale_options.hpp"
#include "std_streams.hpp"
#include "vqm/io/frame_source.hpp"
#include "vqm/io/open.hpp"

namespace vqm::cli {

// Opens `path`. errc::raw_format: a headerless input without its picture format, or a raw file that the
// format does not fit; the library names the format, this program its flags (to give, or to check).
[[nodiscard]] inline std::unique_ptr<io::frame_source> open_input(const std::string& path,
                                                                  const std::optional<picture_format>& raw) {
  try {
    return io::open_frame_source(path, raw);
  } catch (const error& e) {
    if (e.code() != errc::raw_format) throw;
    throw error(e.code(), e.what() + std::string(raw ? " (-w, -h, -p, -b)" : " (give -w, -h, -p and -b)"));
  }
}

struct opened_inputs {
  std::unique_ptr<io::frame_source> ref;
  std::vector<std::unique_ptr<io::frame_source>> dis;
  input_notes decoded;  // the decoders' notes, some known only once every frame is read
  std::optional<picture_format> raw;  // -w/-h/-p/-b, to open the inputs again (run_parts.hpp)

  [[nodiscard]] std::vector<io::frame_source*> distorted() const {
    std::vector<io::frame_source*> out;
    for (const auto& d : dis) out.push_back(d.get());
    return out;
  }
};

// `raw`: the -w/-h/-p/-b format, for headerless inputs.
[[nodiscard]] inline opened_inputs open_inputs(const options& o, const std::optional<picture_format>& raw,
                                               const note_printer& note) {
#if defined(VQM_WITH_FFMPEG)
  io::capture_ffmpeg_log();  // FFmpeg's own messages complete vqm's one-line errors instead of printing
#endif
  auto ref = open_input(o.reference, raw);
  std::vector<std::unique_ptr<io::frame_source>> dis;
  for (const auto& d : o.distorted) dis.push_back(open_input(d, raw));
  input_notes decoded(*ref, dis);  // before the wrappers below hide the readers
  decoded.show(note);
  apply_scaling(o.scale, ref, dis);
  for (const auto& shifted : common_bit_depth(ref, dis)) note(shifted);
  return {std::move(ref), std::move(dis), std::move(decoded), raw};
}

}  // namespace vqm::cli
