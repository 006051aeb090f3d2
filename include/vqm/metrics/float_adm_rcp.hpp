// libvmaf's float_adm divides with x86 RCPSS and one Newton step (adm_tools.c, ADM_OPT_RECIP_DIVISION on
// any SSE2 build): DIVS(n, d) = n · rcp_s(d), rcp_s(x) = xi + xi·(1 − x·xi), xi = RCPSS(x), all binary32.
// RCPSS is a 12-bit estimate whose bits differ between CPU models, so libvmaf's float_adm values depend on
// the CPU that ran it. vqm reproduces the instruction portably from a 4,096-entry table (tables/adm_rcp.hpp:
// AMD Zen 3, Intel Xeon; or this CPU's, measured at run time) — docs/spec-float-features.md, "float_adm".
#pragma once

#include <array>
#include <cstdint>
#include <cstring>

#include "vqm/tables/adm_rcp.hpp"

// libvmaf takes the RCPSS path where __SSE2__ is defined (every x86-64 build); so does "host".
#if defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
#include <xmmintrin.h>
#define VQM_HAVE_RCPSS 1
#else
#define VQM_HAVE_RCPSS 0
#endif

namespace vqm::fadm {

// RCPSS(1.m) for the 4,096 12-bit mantissa prefixes m, as binary32 bits.
using rcp_table = std::array<std::uint32_t, 4096>;

// The adm_rcp option's values, in float_adm_options::rcp_names order.
enum class rcp_source { host = 0, amd = 1, intel = 2, exact = 3 };

#if VQM_HAVE_RCPSS
// This CPU's table (what a libvmaf built for this machine computes).
[[nodiscard]] inline const rcp_table& host_table() {
  static const rcp_table t = [] {
    rcp_table r{};
    for (std::uint32_t p = 0; p < 4096; ++p) {
      const std::uint32_t u = 0x3F800000u | (p << 11);
      float x, y;
      std::memcpy(&x, &u, sizeof x);
      y = _mm_cvtss_f32(_mm_rcp_ss(_mm_set_ss(x)));
      std::memcpy(&r[p], &y, sizeof y);
    }
    return r;
  }();
  return t;
}
#endif

// The table of a source; null: libvmaf divides exactly (a non-x86 host, or "exact").
[[nodiscard]] inline const rcp_table* table_for(rcp_source s) {
  switch (s) {
    case rcp_source::amd:
      return &tables::adm_rcp::amd;
    case rcp_source::intel:
      return &tables::adm_rcp::intel;
    case rcp_source::exact:
      return nullptr;
    case rcp_source::host:
      break;
  }
#if VQM_HAVE_RCPSS
  return &host_table();
#else
  return nullptr;
#endif
}

// RCPSS(x) from a table: the result depends on the sign, the exponent and the top 12 mantissa bits only and
// scales by 2^−e; zero and denormal inputs give ±inf, ±inf gives ±0, a result below the normal range is
// flushed to ±0, NaN stays NaN (quieted).
[[nodiscard]] inline float rcp(const rcp_table& t, float x) noexcept {
  std::uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  const std::uint32_t sign = u & 0x80000000u;
  const int e = static_cast<int>((u >> 23) & 0xFFu);
  std::uint32_t r;
  if (e == 0xFF) {
    r = (u & 0x007FFFFFu) ? (u | 0x00400000u) : sign;
  } else if (e == 0) {
    r = sign | 0x7F800000u;
  } else {
    const std::uint32_t m = t[(u >> 11) & 0xFFFu];
    const int re = static_cast<int>((m >> 23) & 0xFFu) - (e - 127);
    r = re <= 0 ? sign : re >= 0xFF ? (sign | 0x7F800000u) : (sign | (static_cast<std::uint32_t>(re) << 23) | (m & 0x007FFFFFu));
  }
  float y;
  std::memcpy(&y, &r, sizeof y);
  return y;
}

// libvmaf's DIVS(n, d): n · rcp_s(d) with the table, n / d without one.
[[nodiscard]] inline float divs(const rcp_table* t, float n, float d) noexcept {
  if (!t) return n / d;
  const float xi = rcp(*t, d);
  return n * (xi + xi * (1.0f - d * xi));
}

}  // namespace vqm::fadm
