// VQM_PROFILE=1: where a libvmaf caller's time goes, printed to stderr at vmaf_close. FFmpeg's filter
// decodes, copies each frame into a VmafPicture and calls vmaf_read_pictures on one thread, so the wall
// time splits into the calls (vqm: the first picture starts the backend; then the upload and, when
// frames_in_flight() frames are out, the wait for the oldest), the flush (the last frames in flight) and
// the time between calls (the caller: decoding and its copies).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>

namespace vqm::capi {

class call_profile {
 public:
  using clock = std::chrono::steady_clock;

  // Times one vmaf_read_pictures call: the first starts the backend, a null picture is the flush.
  template <class F>
  decltype(auto) time_call(bool flush, F&& call) {
    if (!on_) return call();
    const auto t0 = clock::now();
    if (calls_ && !flush) between_ += t0 - last_;
    struct stop {
      call_profile& p;
      clock::time_point t0;
      bool flush;
      ~stop() {
        p.last_ = clock::now();
        (flush ? p.flush_ : p.calls_ == 0 ? p.first_ : p.inside_) += p.last_ - t0;
        if (!flush) ++p.calls_;
      }
    } s{*this, t0, flush};
    return call();
  }

  void report() const {
    if (!on_ || !calls_) return;
    const auto s = [](clock::duration d) { return std::chrono::duration<double>(d).count(); };
    const double total = s(first_ + inside_ + flush_ + between_);
    std::fprintf(stderr,
                 "vqm profile: %zu pictures, %.3f s from the first call to the flush's end: %.3f s the first call "
                 "(the backend starts), %.3f s in the other calls (upload, waiting for frames in flight), %.3f s "
                 "the flush, %.3f s in the caller between calls (decoding, its copies)\n",
                 calls_, total, s(first_), s(inside_), s(flush_), s(between_));
  }

 private:
  bool on_ = [] {
    const char* v = std::getenv("VQM_PROFILE");
    return v && *v && *v != '0';
  }();
  std::size_t calls_ = 0;
  clock::time_point last_;
  clock::duration first_{}, inside_{}, flush_{}, between_{};
};

}  // namespace vqm::capi
