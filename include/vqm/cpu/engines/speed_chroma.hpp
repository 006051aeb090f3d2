// Cpu kernel and schedule of speed_chroma: per frame, U then V, each plane pair loaded as binary32 and
// scored by cpu/speed.hpp (gray input: mid-grey planes, as libvmaf measured gray fed as 4:2:0).
#pragma once

#include <vector>

#include "vqm/cpu/frame.hpp"
#include "vqm/cpu/speed.hpp"
#include "vqm/metrics/speed_chroma.hpp"

namespace vqm::cpu {

struct speed_chroma_engine {
  static void run(const picture_view& r, const picture_view& d, const speed_request& q, speed_chroma_partials& out) {
    thread_local speed_detail::workspace ws;
    thread_local std::vector<float> a, b;
    const std::size_t n = std::size_t{q.width} * q.height;
    if (a.size() < n) a.resize(n), b.resize(n);
    const bool gray = r.format.planes() == 1;
    const unsigned bpc = r.format.bit_depth;
    float score[2];
    bool err[2];
    for (int c = 1; c <= 2; ++c) {
      speed_detail::load(gray ? nullptr : &r.planes[c], bpc, q.width, q.height, a.data());
      speed_detail::load(gray ? nullptr : &d.planes[c], bpc, q.width, q.height, b.data());
      err[c - 1] = speed_detail::extract_score(ws, q, a.data(), b.data(), score[c - 1]);
    }
    out = {score[0], score[1], err[0], err[1]};
  }
  void speed_chroma(frame& f, const speed_request& q, speed_chroma_partials& out) const { f.record<&run>(q, out); }
};

}  // namespace vqm::cpu
