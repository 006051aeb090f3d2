// SSIM / MS-SSIM constants (SPEC §4.5, §4.6, §5.3, §5.5), shared by every backend.
#pragma once

#include <array>

namespace vqm::tables {

// 11-tap Gaussian (σ = 1.5) as libvmaf rounds it; sums to 1.000002 — never renormalise.
inline constexpr std::array<float, 11> ssim_window{0.001028f, 0.007599f, 0.036001f, 0.109361f, 0.213006f, 0.266012f,
                                                  0.213006f, 0.109361f, 0.036001f, 0.007599f, 0.001028f};
inline constexpr int ssim_window_size = 11;

// C1 = f32(f32(0.01·255)^2), C2 = f32(f32(0.03·255)^2), C3 = C2 / 2, exact binary32 values.
inline constexpr float ssim_c1 = 0x1.a028f4p+2f;
inline constexpr float ssim_c2 = 0x1.d42e12p+5f;
inline constexpr float ssim_c3 = ssim_c2 / 2.0f;

// 9x9 2-D low-pass of the 9/7 biorthogonal wavelet (MS-SSIM pyramid); libvmaf evaluates this 2-D
// table, not the separable form.
inline constexpr std::array<std::array<float, 9>, 9> ms_ssim_lowpass{{
    {0.000714f, -0.000450f, -0.002090f, 0.007132f, 0.016114f, 0.007132f, -0.002090f, -0.000450f, 0.000714f},
    {-0.000450f, 0.000283f, 0.001316f, -0.004490f, -0.010146f, -0.004490f, 0.001316f, 0.000283f, -0.000450f},
    {-0.002090f, 0.001316f, 0.006115f, -0.020867f, -0.047149f, -0.020867f, 0.006115f, 0.001316f, -0.002090f},
    {0.007132f, -0.004490f, -0.020867f, 0.071207f, 0.160885f, 0.071207f, -0.020867f, -0.004490f, 0.007132f},
    {0.016114f, -0.010146f, -0.047149f, 0.160885f, 0.363505f, 0.160885f, -0.047149f, -0.010146f, 0.016114f},
    {0.007132f, -0.004490f, -0.020867f, 0.071207f, 0.160885f, 0.071207f, -0.020867f, -0.004490f, 0.007132f},
    {-0.002090f, 0.001316f, 0.006115f, -0.020867f, -0.047149f, -0.020867f, 0.006115f, 0.001316f, -0.002090f},
    {-0.000450f, 0.000283f, 0.001316f, -0.004490f, -0.010146f, -0.004490f, 0.001316f, 0.000283f, -0.000450f},
    {0.000714f, -0.000450f, -0.002090f, 0.007132f, 0.016114f, 0.007132f, -0.002090f, -0.000450f, 0.000714f}}};

// Wang et al. exponents per scale, binary32 literals widened to double for pow (SPEC §5.5).
inline constexpr std::array<float, 5> ms_ssim_alpha{0.0f, 0.0f, 0.0f, 0.0f, 0.1333f};
inline constexpr std::array<float, 5> ms_ssim_beta{0.0448f, 0.2856f, 0.3001f, 0.2363f, 0.1333f};
inline constexpr std::array<float, 5> ms_ssim_gamma{0.0448f, 0.2856f, 0.3001f, 0.2363f, 0.1333f};

static_assert(static_cast<double>(ssim_c1) == 6.502499580383301);
static_assert(ssim_c3 == 0x1.d42e12p+4f);

}  // namespace vqm::tables
