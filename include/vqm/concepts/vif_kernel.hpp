// VifKernel: the four exact integer sums of libvmaf's integer VIF per scale (SPEC-vmaf Part I §5–§8).
#pragma once

#include <array>
#include <cstdint>

#include "vqm/concepts/backend.hpp"

namespace vqm {

struct vif_request {
  double gain_limit = 100.0;  // vif_enhn_gain_limit, in [1, 100]
  bool skip_scale0 = false;   // vif_skip_scale0: scale 0's statistics are not computed (its sums stay 0)
};

// One scale's accumulators (SPEC §8, §10): exact, non-negative, order-independent.
struct vif_scale_sums {
  std::int64_t num_log = 0;      // NL
  std::int64_t den_log = 0;      // DL
  std::int64_t num_non_log = 0;  // NN
  std::int64_t den_non_log = 0;  // DN
  friend constexpr bool operator==(const vif_scale_sums&, const vif_scale_sums&) = default;
};

// Per scale 0..3; zero = fresh. An empty scale (w_s or h_s = 0) keeps zeros (its score is NaN).
struct vif_partials {
  std::array<vif_scale_sums, 4> scale{};
  friend constexpr bool operator==(const vif_partials&, const vif_partials&) = default;
};

template <class B>
concept VifKernel = Backend<B> && requires(B& b, typename B::frame& f, const vif_request& q, vif_partials& out) {
  b.vif(f, q, out);
};

}  // namespace vqm
