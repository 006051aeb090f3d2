// Instrumentation of a batch (SPEC §8): decision pass rates and the branch partition of the lines.
#pragma once

#include <cstdint>

namespace vqm::lpf {

struct counters {
  std::uint64_t lines = 0;      // 8 x edges
  std::uint64_t fm = 0;         // filter mask passed
  std::uint64_t hev_fm = 0;     // fm && hev
  std::uint64_t flat8_fm = 0;   // fm && flat8in (wd >= 8)
  std::uint64_t flat16_fm = 0;  // fm && flat8in && flat8out (wd == 16)
  // Branches of SPEC §3.1; they partition `lines`.
  std::uint64_t skip = 0, f16 = 0, f8 = 0, f4_2px = 0, f4_4px = 0;
  // Clamp activity; only the scalar reference path counts these (SIMD and GPU paths leave them 0).
  std::uint64_t clamp_a = 0;    // c(p1 - q1) bound
  std::uint64_t clamp_f = 0;    // c(a + 3(q0 - p0)) bound
  std::uint64_t clamp_f4 = 0;   // min(f + 4, max) bound
  std::uint64_t clamp_px = 0;   // an output pixel clamped to [0, 2^bd - 1]

  counters& operator+=(const counters& o) {
    lines += o.lines; fm += o.fm; hev_fm += o.hev_fm; flat8_fm += o.flat8_fm; flat16_fm += o.flat16_fm;
    skip += o.skip; f16 += o.f16; f8 += o.f8; f4_2px += o.f4_2px; f4_4px += o.f4_4px;
    clamp_a += o.clamp_a; clamp_f += o.clamp_f; clamp_f4 += o.clamp_f4; clamp_px += o.clamp_px;
    return *this;
  }
  friend bool operator==(const counters&, const counters&) = default;

  // fm over all lines; the others conditional on fm, as SPEC §8 reports them.
  [[nodiscard]] double fm_rate() const { return lines ? double(fm) / double(lines) : 0.0; }
  [[nodiscard]] double hev_rate() const { return fm ? double(hev_fm) / double(fm) : 0.0; }
  [[nodiscard]] double flat8_rate() const { return fm ? double(flat8_fm) / double(fm) : 0.0; }
  [[nodiscard]] double flat16_rate() const { return fm ? double(flat16_fm) / double(fm) : 0.0; }
};

}  // namespace vqm::lpf
