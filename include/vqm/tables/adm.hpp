// Integer ADM (SPEC-vmaf Part II): DWT filters, the reciprocal table D (§7.2), CSF constants (§6, §12.1)
// and the subband geometry (§2, §5, §9.4, §10) shared by every backend and the host-side scoring.
#pragma once

#include <array>
#include <cstdint>

namespace vqm::tables::adm {

// §4.1: Daubechies-2 analysis filters × 2^15.
inline constexpr std::array<std::int32_t, 4> lo = {15826, 27411, 7345, -4240};
inline constexpr std::array<std::int32_t, 4> hi = {-4240, -7345, 27411, -15826};
inline constexpr std::int32_t lo_sum = 46342;

// §4.4: rounding and shifts of the vertical (v) and horizontal (h) passes of scales 1, 2, 3 (index s − 1).
inline constexpr std::array<std::int64_t, 3> v_round = {0, 32768, 32768};
inline constexpr std::array<int, 3> v_shift = {0, 16, 16};
inline constexpr std::array<std::int64_t, 3> h_round = {16384, 32768, 16384};
inline constexpr std::array<int, 3> h_shift = {15, 16, 15};

// §7.2: D(m) = trunc(2^30 / m), 1 <= m <= 32768 (D(0) unused, 0).
struct reciprocal_table {
  std::array<std::int32_t, 32769> d{};
  constexpr reciprocal_table() {
    for (std::int32_t m = 1; m <= 32768; ++m) d[static_cast<std::size_t>(m)] = static_cast<std::int32_t>((std::int64_t{1} << 30) / m);
  }
  [[nodiscard]] constexpr std::int32_t operator()(std::int32_t m) const noexcept {
    return d[static_cast<std::size_t>(m)];
  }
};
inline constexpr reciprocal_table reciprocal{};
static_assert(reciprocal(1) == 1073741824 && reciprocal(3) == 357913941 && reciprocal(7) == 153391689 &&
              reciprocal(32768) == 32768);

// §7.1: f32(cos(π/180)²) widened, 0x3F7FEC0A.
inline constexpr double cos1_sq = 0.9996954202651978;

// §8 / §9.1 fixed-point filters.
inline constexpr std::int32_t f30_s0 = 4369;            // ≈ 2^17/30, scale 0
inline constexpr std::int32_t f15_s0 = 8738;            // ≈ 2^17/15, scale 0
inline constexpr std::int64_t f30_s = 143165577;        // ≈ 2^32/30, scales 1–3
inline constexpr std::int64_t f15_s = 286331153;        // ≈ 2^32/15, scales 1–3
inline constexpr std::int64_t quirk_round = -(std::int64_t{1} << 31);  // 2^31 stored in int32 (§8)

// §8 scale-0 CSF shifts/roundings per band (h, v, d).
inline constexpr std::array<int, 3> csf0_shift = {15, 15, 17};
inline constexpr std::array<std::int32_t, 3> csf0_round = {16384, 16384, 65535};

// §6.1 Watson 1997 luma parameters (C floats) and basis amplitudes A[λ][θ].
inline constexpr float watson_a = 0.495f, watson_k = 0.466f, watson_f0 = 0.401f;
inline constexpr std::array<float, 4> watson_g = {1.501f, 1.0f, 0.534f, 1.0f};
inline constexpr float watson_amp[4][4] = {{0.62171f, 0.67234f, 0.72709f, 0.67234f},
                                           {0.34537f, 0.41317f, 0.49428f, 0.41317f},
                                           {0.18004f, 0.22727f, 0.28688f, 0.22727f},
                                           {0.091401f, 0.11792f, 0.15214f, 0.11792f}};

// §6.2: hard-coded scale-0 multipliers (h, v, d) for the default geometry in mode 0.
inline constexpr std::array<std::uint16_t, 3> irf0_default = {36453, 36453, 49417};
// §6.2: scale 1–3 multipliers u32(fac·2^32) for the default geometry (h, v, d).
inline constexpr std::uint32_t irf_default[3][3] = {{137373792u, 137373792u, 61414028u},
                                                    {186284160u, 186284160u, 104783920u},
                                                    {196165808u, 196165808u, 134487184u}};

// §12.1 Barten (mode 1): luminance anchors and parameter rows (C floats).
inline constexpr std::array<float, 6> barten_anchor = {0.002f, 0.02f, 0.2f, 2.0f, 20.0f, 150.0f};
inline constexpr float barten_p[6][5] = {{0.0160737f, 0.991265f, 3.74038f, 0.50722f, 4.46044f},
                                         {0.383873f, 0.800889f, 3.54104f, 0.682505f, 4.94958f},
                                         {0.929301f, 0.476505f, 4.37453f, 0.750315f, 5.28678f},
                                         {1.29776f, 0.405782f, 4.40602f, 0.935314f, 5.61425f},
                                         {1.49222f, 0.334278f, 3.79542f, 1.07327f, 6.4635f},
                                         {1.46213f, 0.394533f, 2.7755f, 1.16577f, 7.45665f}};
inline constexpr std::array<float, 4> barten_sa = {30.162f, 4.0627f, 1.6596f, 0.2712f};
inline constexpr std::array<float, 4> barten_ma = {0.424838596301290f, 0.572435103936480f, 0.000167576239164937f,
                                                   0.00255872352306433f};
inline constexpr std::array<float, 4> barten_mb = {0.028f, 0.37f, 37.0f, 360.0f};

// §12.1 modes 2 (legacy blend) and 3 (MAE blend): factors per (rdh, nvd); row 0 = θ 0/1 (h, v), row 1 = θ 2 (d),
// column = scale. Values as in libvmaf's barten_csf_tools.h (C floats).
struct blend_entry {
  int rdh;
  double nvd;
  float f[2][4];
};
inline constexpr blend_entry blend_mode2[] = {
    {1080, 3.0, {{0.01183f, 0.025026f, 0.04295f, 0.058621f}, {0.004302f, 0.011778f, 0.023918f, 0.035901f}}},
    {1080, 5.0, {{0.004212f, 0.014809f, 0.029642f, 0.047464f}, {0.000984f, 0.005852f, 0.0146f, 0.027574f}}},
    {2160, 1.5, {{0.01183f, 0.025026f, 0.04295f, 0.058621f}, {0.004302f, 0.011778f, 0.023918f, 0.035901f}}},
    {2160, 3.0, {{0.00226f, 0.01183f, 0.025026f, 0.04295f}, {0.000479f, 0.004302f, 0.011778f, 0.023918f}}},
    {2160, 5.0, {{0.000092f, 0.004212f, 0.014809f, 0.029642f}, {0.000050f, 0.000984f, 0.005852f, 0.0146f}}},
    {720, 3.0, {{0.018715f, 0.035637f, 0.052798f, 0.061509f}, {0.007999f, 0.018396f, 0.031851f, 0.037718f}}},
    {720, 5.0, {{0.010144f, 0.022561f, 0.040309f, 0.05672f}, {0.003463f, 0.010282f, 0.021839f, 0.034641f}}},
    {480, 3.0, {{0.027961f, 0.045875f, 0.060275f, 0.056234f}, {0.013572f, 0.026277f, 0.036959f, 0.034511f}}},
    {480, 5.0, {{0.016781f, 0.032822f, 0.05032f, 0.061594f}, {0.00691f, 0.016545f, 0.029917f, 0.037777f}}},
};
inline constexpr blend_entry blend_mode3[] = {
    {1080, 3.0, {{0.011249f, 0.022606f, 0.035930f, 0.045673f}, {0.004097f, 0.010921f, 0.021430f, 0.031313f}}},
    {1080, 5.0, {{0.004052f, 0.013939f, 0.026298f, 0.038833f}, {0.000927f, 0.005544f, 0.013415f, 0.024515f}}},
    {2160, 1.5, {{0.011249f, 0.022606f, 0.035930f, 0.045673f}, {0.004097f, 0.010921f, 0.021430f, 0.031313f}}},
    {2160, 3.0, {{0.002166f, 0.011249f, 0.022606f, 0.035930f}, {0.000447f, 0.004097f, 0.010921f, 0.021430f}}},
    {2160, 5.0, {{0.000077f, 0.004052f, 0.013939f, 0.026298f}, {0.000045f, 0.000927f, 0.005544f, 0.013415f}}},
    {720, 3.0, {{0.017329f, 0.030870f, 0.042134f, 0.047410f}, {0.007509f, 0.016707f, 0.028072f, 0.032722f}}},
    {720, 5.0, {{0.009689f, 0.020577f, 0.034162f, 0.044523f}, {0.003302f, 0.009579f, 0.019661f, 0.030318f}}},
    {480, 3.0, {{0.024969f, 0.037825f, 0.046676f, 0.043974f}, {0.012511f, 0.023424f, 0.032139f, 0.030166f}}},
    {480, 5.0, {{0.015665f, 0.028766f, 0.040612f, 0.047483f}, {0.006514f, 0.015107f, 0.026476f, 0.032776f}}},
};

// ---- geometry ----

// bit length of x >= 0 (0 for 0).
[[nodiscard]] constexpr int bit_length(std::uint64_t x) noexcept {
  int n = 0;
  while (x) {
    ++n;
    x >>= 1;
  }
  return n;
}
// ⌈log2 n⌉ for n >= 1 (libvmaf's ceil(log2((double)n)); equal for all sizes that matter).
[[nodiscard]] constexpr int ceil_log2(std::uint64_t n) noexcept { return n <= 1 ? 0 : bit_length(n - 1); }

// §5 inner region of a w × h subband: columns [left, right), rows [top, bottom).
struct region {
  int left = 0, top = 0, right = 0, bottom = 0;
  [[nodiscard]] constexpr std::int64_t area() const noexcept {
    return std::int64_t{bottom - top} * (right - left);
  }
};
[[nodiscard]] constexpr int region_border(int n) noexcept {
  // trunc(0.1·n − 0.5) in double (= (n − 5) div 10 for n >= 5, 0 below).
  return static_cast<int>(0.1 * n - 0.5);
}
[[nodiscard]] constexpr region inner_region(int w, int h) noexcept {
  const int l = region_border(w), t = region_border(h);
  return region{l, t, w - l, h - t};
}

// Subband size of scale s (0..3) for an input of n samples: ⌈n / 2^(s+1)⌉ applied step by step.
[[nodiscard]] constexpr int subband_size(int n, int s) noexcept {
  for (int i = 0; i <= s; ++i) n = (n + 1) / 2;
  return n;
}

}  // namespace vqm::tables::adm
