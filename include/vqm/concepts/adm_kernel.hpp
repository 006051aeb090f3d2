// AdmKernel: the exact integer accumulators of libvmaf's integer ADM (SPEC-vmaf Part II §9.4, §10).
// Everything per pixel (DWT, decoupling incl. the angle test and the gain-limit double ops, CSF, masking)
// runs in the kernel; everything per frame (powf, §9.5, §10 float part, §11) runs on the host in
// adm_algorithm::scores, shared by every backend.
#pragma once

#include <cstdint>
#include <cstring>

#include "vqm/concepts/backend.hpp"

namespace vqm {

struct adm_request {
  double enhn_gain_limit = 100.0;  // §7.4 (egl)
  bool skip_scale0 = false;        // §12: scale 0 computes band a only
  bool skip_aim = false;           // §12: no AIM accumulators
  // §6.2 fixed-point CSF multipliers, bands (h, v, d). irf0: scale 0 (h, v Q21, d Q23); irf[s-1]: scales 1–3.
  std::uint16_t irf0[3] = {36453, 36453, 49417};
  std::uint32_t irf[3][3] = {{137373792u, 137373792u, 61414028u},
                             {186284160u, 186284160u, 104783920u},
                             {196165808u, 196165808u, 134487184u}};
};

// Whether a and b ask for the same accumulators but for the gain limit (VMAF's and NEG's requests): the
// requests a backend may serve with one shared pass.
[[nodiscard]] inline bool same_but_gain_limit(const adm_request& a, const adm_request& b) noexcept {
  return a.skip_scale0 == b.skip_scale0 && a.skip_aim == b.skip_aim && std::memcmp(a.irf0, b.irf0, sizeof a.irf0) == 0 &&
         std::memcmp(a.irf, b.irf, sizeof a.irf) == 0;
}

// Per scale s (0 finest .. 3) and band b (0 = h, 1 = v, 2 = d): the row-rounded sums of §9.4 (DLM and AIM
// numerators) and §10 (denominator). Zero = fresh; skipped parts stay zero.
struct adm_partials {
  std::uint64_t den[4][3] = {};
  std::int64_t dlm[4][3] = {};
  std::int64_t aim[4][3] = {};

  friend bool operator==(const adm_partials&, const adm_partials&) = default;
};

template <class B>
concept AdmKernel = Backend<B> && requires(B& b, typename B::frame& f, const adm_request& q, adm_partials& out) {
  b.adm(f, q, out);
};

}  // namespace vqm
