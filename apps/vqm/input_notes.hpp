// Notes the FFmpeg reader has about what it decodes (interlaced, rotated, variable frame rate: what vqm
// scores differently from what one might assume), printed once each as they become known.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "vqm/io/frame_source.hpp"
#if defined(VQM_WITH_FFMPEG)
#include "vqm/io/ffmpeg_reader.hpp"
#endif

namespace vqm::cli {

class input_notes {
 public:
  // Call with the sources as opened, before scaling or bit-depth wrappers hide the readers (the
  // wrappers own them, so the pointers stay valid).
  input_notes([[maybe_unused]] const io::frame_source& ref,
              [[maybe_unused]] const std::vector<std::unique_ptr<io::frame_source>>& dis) {
#if defined(VQM_WITH_FFMPEG)
    add(ref);
    for (const auto& d : dis) add(*d);
#endif
  }

  // Passes the notes not yet shown to `note`: after opening (the stream's and first frame's), and again
  // after the last frame (a variable frame rate is known only once the frames are decoded).
  template <class F>
  void show(F&& note) {
#if defined(VQM_WITH_FFMPEG)
    for (std::size_t k = 0; k < readers_.size(); ++k) {
      const auto n = readers_[k]->notes();
      for (; shown_[k] < n.size(); ++shown_[k]) note(n[shown_[k]]);
    }
#else
    (void)note;
#endif
  }

 private:
#if defined(VQM_WITH_FFMPEG)
  void add(const io::frame_source& s) {
    if (const auto* f = dynamic_cast<const io::ffmpeg_reader*>(&s)) {
      readers_.push_back(f);
      shown_.push_back(0);
    }
  }
  std::vector<const io::ffmpeg_reader*> readers_;
  std::vector<std::size_t> shown_;
#endif
};

}  // namespace vqm::cli
