// Helpers shared by the lpf tests.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "vqm/lpf/counters.hpp"
#include "vqm/lpf/edge.hpp"
#include "vqm/lpf/random_edges.hpp"
#include "vqm/lpf/reference.hpp"

namespace vqm::lpf::test {

inline std::string trace_path(const char* file) { return std::string(VQM_TEST_DATA_DIR) + "/vp9lpf/" + file; }
inline const char* const trace_files[] = {"vp9lpf_trace_moto1080_crf35.bin", "vp9lpf_trace_mandelnoise1080_crf34.bin"};

template <class Pixel>
std::size_t count_mismatches(const std::vector<Pixel>& a, const std::vector<Pixel>& b) {
  std::size_t n = a.size() == b.size() ? 0 : std::size_t(-1);
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) n += a[i] != b[i];
  return n;
}

// The scalar reference's result (and its counters) for a random batch.
template <class Pixel>
std::vector<Pixel> reference_result(random_batch<Pixel> b, counters* c = nullptr) {
  reference::filter(b.k, b.view(), b.edges, c);
  return b.pixels;
}

// Counters without the clamp-activity fields, which only the scalar reference fills.
inline counters decisions_only(counters c) {
  c.clamp_a = c.clamp_f = c.clamp_f4 = c.clamp_px = 0;
  return c;
}

// Batches per (dir, wd, bd): >= 1e5 lines each (SPEC §9.2 item 4).
inline constexpr std::size_t random_edges_per_batch = 12800;

}  // namespace vqm::lpf::test
