// Body of the x86 horizontal pass of the motion SAD (cpu/motion.hpp), included by x86/motion.hpp once per
// instruction set, inside namespace sse2 or avx2. No include guard on purpose.

// Σ of the pair taps t01, t21, t00 over the int16 values at p .. p + 5 (pmaddwd).
VQM_CPU_INLINE i32v motion_taps(const std::int16_t* p, i16v t01, i16v t21, i16v t00) noexcept {
  return madd(load<i16v>(p), t01) + madd(load<i16v>(p + 2), t21) + madd(load<i16v>(p + 4), t00);
}

// Horizontal pass of one row with pmaddwd: vp[0 .. w+3] is the padded V row. V = 256*hi + lo with hi in
// [-256, 255] and lo in [0, 255] fits int16, and so do the taps, so each 16-bit pair product sum is exact
// in int32. Even and odd outputs go to separate vectors: only the sum of |E| is needed.
[[gnu::flatten]] inline std::uint32_t motion_row(const std::int32_t* vp, std::int16_t* hp, std::int16_t* lp,
                                                 std::int64_t w) noexcept {
  constexpr int n16 = bytes / 2, n32 = bytes / 4;  // int16 and int32 lanes
  const std::int64_t n = w + 4;
  std::int64_t i = 0;
  for (; i + n16 <= n; i += n16) {
    const i32v a = load<i32v>(vp + i), b = load<i32v>(vp + i + n32);
    store(hp + i, packs(a >> 8, b >> 8));
    store(lp + i, packs(a & 255, b & 255));
  }
  for (; i < n; ++i) {
    hp[i] = static_cast<std::int16_t>(vp[i] >> 8);
    lp[i] = static_cast<std::int16_t>(vp[i] & 255);
  }
  // Pair taps: the low 16 bits of a lane hold the even element.
  const i16v t01 = reinterpret_cast<i16v>(i32v{} + (motion_f0 | (motion_f1 << 16)));
  const i16v t21 = reinterpret_cast<i16v>(i32v{} + (motion_f2 | (motion_f1 << 16)));
  const i16v t00 = reinterpret_cast<i16v>(i32v{} + motion_f0);
  u32v acc{};
  std::int64_t c = 0;
  for (; c + n16 <= w; c += n16)
    for (std::int64_t k = c; k < c + 2; ++k) {
      const i32v sh = motion_taps(hp + k, t01, t21, t00), sl = motion_taps(lp + k, t01, t21, t00);
      const i32v e = (sh + ((sl + 32768) >> 8)) >> 8;
      acc += reinterpret_cast<u32v>(abs(e));
    }
  std::uint32_t row = 0;
  for (int l = 0; l < n32; ++l) row += acc[l];
  for (; c < w; ++c) {
    const std::int64_t e = motion_filter_scalar(vp[c], vp[c + 1], vp[c + 2], vp[c + 3], vp[c + 4], 16);
    row += static_cast<std::uint32_t>(e < 0 ? -e : e);
  }
  return row;
}
