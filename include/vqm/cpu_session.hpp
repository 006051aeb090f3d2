// The compiled library's light API (vqm::cpu_compiled, libvqm_cpu.a): VMAF sessions and single metrics on
// the Cpu backend behind non-template classes, so that a user's file parses none of the engines, kernels,
// intrinsics or model parsing (vqm/cpu.hpp): a few standard headers and picture.hpp. Same values as
// session<Cpu> and compute(cpu, metric, ...) (they are what runs inside), bit for bit.
//
//   vqm::cpu_session s(ref.format(), {.models = {"vmaf_v0.6.1"}, .threads = 2});
//   for (...) s.push(ref_picture, dis_picture);
//   const vqm::score_table t = s.finish();          // t.column("vmaf"), t.pooled("vmaf").mean, ...
//
//   vqm::cpu_metric psnr("psnr", ref.format());
//   const std::vector<double> v = psnr.compute(r, d);  // psnr_y, psnr_cb, psnr_cr (psnr.names())
//
// Header-only users keep vqm/cpu.hpp and session<Cpu>; these classes are defined in libvqm_cpu.a only.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "vqm/compat.hpp"
#include "vqm/picture.hpp"
#include "vqm/score_table.hpp"

namespace vqm {

// session_config with the models and features named as the CLI names them, plus the Cpu backend's threads.
struct cpu_session_config {
  std::vector<std::string> models{};    // vmaf::load_model specs: "vmaf_v0.6.1", "path=m.json:name=m", a file
  std::vector<std::string> features{};  // parse_feature_request texts: "psnr", "float_ssim=enable_db=true"
  compat mode = compat::none;
  std::size_t depth = 1;      // frames in flight (use >= threads)
  std::size_t subsample = 1;  // report frames with index % subsample == 0
  unsigned threads = 1;       // Cpu(threads): <= 1 runs on the caller's thread
};

// session<Cpu> over its own Cpu backend. Throws vqm::error as session<Cpu> does (unknown model or feature,
// unsupported format).
class cpu_session {
 public:
  cpu_session(const picture_format& f, const cpu_session_config& c);
  cpu_session(cpu_session&&) noexcept;
  cpu_session& operator=(cpu_session&&) noexcept;
  ~cpu_session();

  // session::on_frame: every reported frame's row while streaming (before the first push).
  void on_frame(std::function<void(const frame_scores&)> f);
  // Views valid until depth() later frames are pushed (session::push).
  void push(const picture_view& ref, const picture_view& dis);
  [[nodiscard]] score_table finish();
  [[nodiscard]] const std::vector<std::string>& feature_names() const noexcept;
  [[nodiscard]] std::size_t depth() const noexcept;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

// One feature on one pair, synchronously: make_metric<Cpu> and compute(). `request` as parse_feature_request
// reads it ("psnr", "psnr=enable_chroma=false").
class cpu_metric {
 public:
  cpu_metric(std::string_view request, const picture_format& f, compat c = compat::none);
  cpu_metric(cpu_metric&&) noexcept;
  cpu_metric& operator=(cpu_metric&&) noexcept;
  ~cpu_metric();

  // The outputs of compute(), in order ("psnr_y", "psnr_cb", "psnr_cr").
  [[nodiscard]] const std::vector<std::string>& names() const noexcept;
  // One call at a time per object (it owns one Cpu backend and the metric's partials).
  [[nodiscard]] std::vector<double> compute(const picture_view& ref, const picture_view& dis);

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace vqm
