// libvmaf's order of the feature series in its outputs, which depends on its thread count: shared by the
// CLI (libvmaf's --threads) and the libvmaf C API (VmafConfiguration::n_threads).
#pragma once

#include <algorithm>
#include <span>
#include <string>
#include <vector>

#include "vqm/metric_set.hpp"
#include "vqm/output/report.hpp"

namespace vqm::output {

// With n_threads > 0 libvmaf 3.2.0's outputs list psnr's and float_motion's series first (in registration
// order, float_motion's motion3 with them), then the other features' in registration order: measured with
// its CLI (`--threads 1`, ../shared/vmaf-cli-default/*.five.*), FFmpeg's filter and libvmaf's API (psnr,
// float_motion, float_ssim, float_psnr, psnr_hvs, float_ms_ssim, ciede, float_moment, float_vif, the integer
// VMAF features; 1 to 4 threads, the same every run). With n_threads == 0: registration order, nothing first.
[[nodiscard]] inline std::vector<std::string> threaded_first_series(std::span<const feature_request> features,
                                                                    unsigned n_threads) {
  std::vector<std::string> out;
  if (n_threads == 0) return out;
  for (const auto& req : features) {
    if (req.name != "psnr" && req.name != "float_motion") continue;
    const auto suffix = feature_suffix(req.name, req.options);
    registry::all::for_each([&]<class E>() {
      if (E::algorithm::feature_name != req.name) return;
      for (const auto& o : E::algorithm::provided) out.push_back(printed_name(o, suffix));
    });
  }
  return out;
}

// `r`'s series with those of `first` it has moved to the front (in `first`'s order), the others after them
// in their order; every frame's values follow their names.
inline void put_first(report& r, const std::vector<std::string>& first) {
  std::vector<std::size_t> cols;
  for (const auto& n : first)
    if (const auto it = std::find(r.names.begin(), r.names.end(), n); it != r.names.end()) {
      const auto k = static_cast<std::size_t>(it - r.names.begin());
      if (std::find(cols.begin(), cols.end(), k) == cols.end()) cols.push_back(k);
    }
  if (cols.empty()) return;
  for (std::size_t k = 0; k < r.names.size(); ++k)
    if (std::find(cols.begin(), cols.end(), k) == cols.end()) cols.push_back(k);
  std::vector<std::string> names;
  for (auto k : cols) names.push_back(r.names[k]);
  r.names = std::move(names);
  for (auto& f : r.frames) {
    std::vector<double> v;
    v.reserve(cols.size());
    for (auto k : cols) v.push_back(f.values[k]);
    f.values = std::move(v);
  }
}

}  // namespace vqm::output
