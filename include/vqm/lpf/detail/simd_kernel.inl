// SIMD body of the Cpu path, included by simd.hpp once per instruction set with VQM_LPF_LANES = 8 (SSE2,
// one edge per register) or 16 (AVX2, two edges per register, one per 128-bit half). No include guard on
// purpose. Lanes are int16: every intermediate of SPEC §4–§5 fits (filter16's sum uses unsigned lanes),
// so the vector arithmetic is the scalar formula lane by lane — bit-exact by construction.

using V = short __attribute__((vector_size(VQM_LPF_LANES * 2)));
using U = unsigned short __attribute__((vector_size(VQM_LPF_LANES * 2)));
inline constexpr int edges_per_vec = VQM_LPF_LANES / 8;

#if VQM_LPF_LANES == 8
using R = __m128i;
[[gnu::always_inline]] inline R ulo16(R a, R b) { return _mm_unpacklo_epi16(a, b); }
[[gnu::always_inline]] inline R uhi16(R a, R b) { return _mm_unpackhi_epi16(a, b); }
[[gnu::always_inline]] inline R ulo32(R a, R b) { return _mm_unpacklo_epi32(a, b); }
[[gnu::always_inline]] inline R uhi32(R a, R b) { return _mm_unpackhi_epi32(a, b); }
[[gnu::always_inline]] inline R ulo64(R a, R b) { return _mm_unpacklo_epi64(a, b); }
[[gnu::always_inline]] inline R uhi64(R a, R b) { return _mm_unpackhi_epi64(a, b); }
[[gnu::always_inline]] inline R packus16(R a, R b) { return _mm_packus_epi16(a, b); }
[[gnu::always_inline]] inline R ulo8(R a, R b) { return _mm_unpacklo_epi8(a, b); }
[[gnu::always_inline]] inline R srl8(R a) { return _mm_srli_si128(a, 8); }
[[gnu::always_inline]] inline R join(__m128i a, __m128i) { return a; }
template <int I>
[[gnu::always_inline]] inline __m128i half(R v) { return v; }
[[gnu::always_inline]] inline int lane_count(V m) { return __builtin_popcount(unsigned(_mm_movemask_epi8(R(m)))) >> 1; }
#else
using R = __m256i;
[[gnu::always_inline]] inline R ulo16(R a, R b) { return _mm256_unpacklo_epi16(a, b); }
[[gnu::always_inline]] inline R uhi16(R a, R b) { return _mm256_unpackhi_epi16(a, b); }
[[gnu::always_inline]] inline R ulo32(R a, R b) { return _mm256_unpacklo_epi32(a, b); }
[[gnu::always_inline]] inline R uhi32(R a, R b) { return _mm256_unpackhi_epi32(a, b); }
[[gnu::always_inline]] inline R ulo64(R a, R b) { return _mm256_unpacklo_epi64(a, b); }
[[gnu::always_inline]] inline R uhi64(R a, R b) { return _mm256_unpackhi_epi64(a, b); }
[[gnu::always_inline]] inline R packus16(R a, R b) { return _mm256_packus_epi16(a, b); }
[[gnu::always_inline]] inline R ulo8(R a, R b) { return _mm256_unpacklo_epi8(a, b); }
[[gnu::always_inline]] inline R srl8(R a) { return _mm256_bsrli_epi128(a, 8); }
[[gnu::always_inline]] inline R join(__m128i a, __m128i b) { return _mm256_inserti128_si256(_mm256_castsi128_si256(a), b, 1); }
template <int I>
[[gnu::always_inline]] inline __m128i half(R v) {
  if constexpr (I == 0) return _mm256_castsi256_si128(v);
  else return _mm256_extracti128_si256(v, 1);
}
[[gnu::always_inline]] inline int lane_count(V m) { return __builtin_popcount(unsigned(_mm256_movemask_epi8(R(m)))) >> 1; }
#endif

// 8x8 transpose of int16 lanes (per 128-bit half): r[i][j] -> r[j][i]. Its own inverse.
[[gnu::always_inline]] inline void transpose8(R* r) {
  const R a0 = ulo16(r[0], r[1]), a1 = ulo16(r[2], r[3]), a2 = ulo16(r[4], r[5]), a3 = ulo16(r[6], r[7]);
  const R a4 = uhi16(r[0], r[1]), a5 = uhi16(r[2], r[3]), a6 = uhi16(r[4], r[5]), a7 = uhi16(r[6], r[7]);
  const R b0 = ulo32(a0, a1), b1 = uhi32(a0, a1), b2 = ulo32(a2, a3), b3 = uhi32(a2, a3);
  const R b4 = ulo32(a4, a5), b5 = uhi32(a4, a5), b6 = ulo32(a6, a7), b7 = uhi32(a6, a7);
  r[0] = ulo64(b0, b2); r[1] = uhi64(b0, b2); r[2] = ulo64(b1, b3); r[3] = uhi64(b1, b3);
  r[4] = ulo64(b4, b6); r[5] = uhi64(b4, b6); r[6] = ulo64(b5, b7); r[7] = uhi64(b5, b7);
}

// 8 consecutive pixels as int16 lanes.
template <class Pixel>
[[gnu::always_inline]] inline __m128i load8(const Pixel* p) {
  if constexpr (sizeof(Pixel) == 1)
    return _mm_unpacklo_epi8(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)), _mm_setzero_si128());
  else
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
}

// Stores lanes [First, First + Count) of v to p[First ...]; only the write window is touched.
template <int First, int Count, class Pixel>
[[gnu::always_inline]] inline void store_lanes(Pixel* p, __m128i v) {
  if constexpr (sizeof(Pixel) == 1) {
    const __m128i b = _mm_packus_epi16(v, v);
    if constexpr (First == 0 && Count == 8) {
      _mm_storel_epi64(reinterpret_cast<__m128i*>(p), b);
    } else if constexpr (Count == 4) {
      const int w = _mm_cvtsi128_si32(_mm_srli_si128(b, First));
      std::memcpy(p + First, &w, 4);
    } else {
      alignas(16) std::uint8_t t[16];
      _mm_store_si128(reinterpret_cast<__m128i*>(t), b);
      std::memcpy(p + First, t + First, Count);
    }
  } else {
    if constexpr (First == 0 && Count == 8) {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v);
    } else {
      alignas(16) std::uint16_t t[8];
      _mm_store_si128(reinterpret_cast<__m128i*>(t), v);
      std::memcpy(p + First, t + First, Count * 2);
    }
  }
}

// Stores 8 rows of 4 bytes: rows 0-3 from the 32-bit elements of lo, rows 4-7 from hi.
template <class Pixel>
[[gnu::always_inline]] inline void store_rows4(Pixel* p, std::ptrdiff_t stride, __m128i lo, __m128i hi) {
  for (int l = 0; l < 4; ++l) {
    const int a = _mm_cvtsi128_si32(lo), b = _mm_cvtsi128_si32(hi);
    std::memcpy(p + l * stride, &a, 4);
    std::memcpy(p + (l + 4) * stride, &b, 4);
    lo = _mm_srli_si128(lo, 4);
    hi = _mm_srli_si128(hi, 4);
  }
}

[[gnu::always_inline]] inline V vabsdiff(V a, V b) {
  const V d = a - b;
  return d < 0 ? -d : d;
}
[[gnu::always_inline]] inline V vmin(V a, V b) { return a < b ? a : b; }
[[gnu::always_inline]] inline V vclamp(V a, V lo, V hi) { return a < lo ? lo : (a > hi ? hi : a); }
[[gnu::always_inline]] inline V vsel(V m, V a, V b) { return (m & a) | (~m & b); }

template <class Pixel>
[[gnu::always_inline]] inline R load_join(const Pixel* base, const edge* e, std::ptrdiff_t rel) {
  if constexpr (edges_per_vec == 1) return join(load8(base + e[0].offset + rel), _mm_setzero_si128());
  else return join(load8(base + e[0].offset + rel), load8(base + e[1].offset + rel));
}
template <int First, int Count, class Pixel>
[[gnu::always_inline]] inline void store_split(Pixel* base, const edge* e, std::ptrdiff_t rel, R v) {
  store_lanes<First, Count>(base + e[0].offset + rel, half<0>(v));
  if constexpr (edges_per_vec == 2) store_lanes<First, Count>(base + e[1].offset + rel, half<1>(v));
}
[[gnu::always_inline]] inline V splat(const edge* e, int which, int shift) {
  auto get = [which](const edge& x) { return which == 0 ? x.E : which == 1 ? x.I : x.H; };
  if constexpr (edges_per_vec == 1) return V(join(_mm_set1_epi16(short(get(e[0]) << shift)), _mm_setzero_si128()));
  else return V(join(_mm_set1_epi16(short(get(e[0]) << shift)), _mm_set1_epi16(short(get(e[1]) << shift))));
}

// Filters edges_per_vec edges: load the taps as x[8 + k] (one lane per line), decide, filter, store.
template <direction Dir, int Wd, bool Count, class Pixel>
[[gnu::always_inline]] inline void process(Pixel* base, std::ptrdiff_t stride, const edge* e, int bd, counters& c) {
  constexpr int r = read_reach(Wd);
  V x[16];
  if constexpr (Dir == direction::v) {
    for (int k = -r; k < r; ++k) x[8 + k] = V(load_join(base, e, k * stride));
  } else {
    for (int h0 = -r; h0 < r; h0 += 8) {
      R rows[8];
      for (int l = 0; l < 8; ++l) rows[l] = load_join(base, e, l * stride + h0);
      transpose8(rows);
      for (int t = 0; t < 8; ++t) x[8 + h0 + t] = V(rows[t]);
    }
  }
  const int s = bd - 8;
  const V Ev = splat(e, 0, s), Iv = splat(e, 1, s), Hv = splat(e, 2, s);
  const short F = short(1 << s), pmax = short((1 << bd) - 1), smax = short((1 << (bd - 1)) - 1);
  const V zero = V{} , vF = zero + F, vpmax = zero + pmax, vsmax = zero + smax, vsmin = zero - smax - 1;
  const V p3 = x[4], p2 = x[5], p1 = x[6], p0 = x[7], q0 = x[8], q1 = x[9], q2 = x[10], q3 = x[11];

  const V fm = (vabsdiff(p3, p2) <= Iv) & (vabsdiff(p2, p1) <= Iv) & (vabsdiff(p1, p0) <= Iv) &
               (vabsdiff(q1, q0) <= Iv) & (vabsdiff(q2, q1) <= Iv) & (vabsdiff(q3, q2) <= Iv) &
               ((vabsdiff(p0, q0) * 2 + (vabsdiff(p1, q1) >> 1)) <= Ev);
  const V hev = (vabsdiff(p1, p0) > Hv) | (vabsdiff(q1, q0) > Hv);
  V flat8 = zero, flat16 = zero;
  if constexpr (Wd >= 8)
    flat8 = (vabsdiff(p1, p0) <= vF) & (vabsdiff(q1, q0) <= vF) & (vabsdiff(p2, p0) <= vF) &
            (vabsdiff(q2, q0) <= vF) & (vabsdiff(p3, p0) <= vF) & (vabsdiff(q3, q0) <= vF);
  if constexpr (Wd == 16) {
    flat16 = flat8;
    for (int i = 4; i < 8; ++i) flat16 &= (vabsdiff(x[7 - i], p0) <= vF) & (vabsdiff(x[8 + i], q0) <= vF);
  }
  const V m16 = fm & flat16;
  const V m8 = fm & flat8 & ~m16;
  const V m4 = fm & ~flat8;

  // filter4 on every lane; lanes outside m4 get f = 0, which rewrites their own values (SPEC §4.2 item 4).
  const V a = vclamp(p1 - q1, vsmin, vsmax) & hev;
  const V f = vclamp(a + (q0 - p0) * 3, vsmin, vsmax) & m4;
  const V f1 = vmin(f + 4, vsmax) >> 3;
  const V f2 = vmin(f + 3, vsmax) >> 3;
  const V g = ((f1 + 1) >> 1) & ~hev;
  V y[16];
  for (int i = 0; i < 16; ++i) y[i] = x[i];
  y[8] = vclamp(q0 - f1, zero, vpmax);
  y[7] = vclamp(p0 + f2, zero, vpmax);
  y[9] = vclamp(q1 - g, zero, vpmax);
  y[6] = vclamp(p1 + g, zero, vpmax);

  if constexpr (Wd >= 8) {
    // 7-tap running sum over x[-4..3] with clamped ends (SPEC §4.3); max 8 * 4095 + 4 fits int16.
    V sum = x[4] * 3 + x[5] * 2 + x[6] + x[7] + x[8] + 4;  // window of k = -3 plus its centre
    for (int k = -3; k <= 2; ++k) {
      y[8 + k] = vsel(m8, sum >> 3, y[8 + k]);
      if (k < 2) {
        const int leave = k - 3 < -4 ? -4 : k - 3, enter = k + 4 > 3 ? 3 : k + 4;
        sum += x[8 + enter] - x[8 + leave] + x[8 + k + 1] - x[8 + k];
      }
    }
  }
  if constexpr (Wd == 16) {
    // 15-tap running sum over x[-8..7] (SPEC §4.4) in unsigned lanes: 16 * 4095 + 8 overflows int16.
    U u[16];
    for (int i = 0; i < 16; ++i) u[i] = U(x[i]);
    U sum = u[0] * 7 + u[1] * 2 + u[2] + u[3] + u[4] + u[5] + u[6] + u[7] + u[8] + 8;
    for (int k = -7; k <= 6; ++k) {
      y[8 + k] = vsel(m16, V(sum >> 4), y[8 + k]);
      if (k < 6) {
        const int leave = k - 7 < -8 ? -8 : k - 7, enter = k + 8 > 7 ? 7 : k + 8;
        sum += u[8 + enter] - u[8 + leave] + u[8 + k + 1] - u[8 + k];
      }
    }
  }

  if constexpr (Count) {
    c.lines += 8 * edges_per_vec;
    const int nfm = lane_count(fm), n16 = lane_count(m16), n8 = lane_count(m8), n2 = lane_count(m4 & hev);
    c.fm += nfm;
    c.hev_fm += lane_count(fm & hev);
    c.flat8_fm += lane_count(fm & flat8);
    c.flat16_fm += n16;
    c.skip += 8 * edges_per_vec - nfm;
    c.f16 += n16;
    c.f8 += n8;
    c.f4_2px += n2;
    c.f4_4px += nfm - n16 - n8 - n2;
  }

  constexpr int w = write_reach(Wd);
  if constexpr (Dir == direction::v) {
    for (int k = -w; k < w; ++k) store_split<0, 8>(base, e, k * stride, R(y[8 + k]));
  } else if constexpr (Wd == 16) {
    R lo[8], hi[8];
    for (int t = 0; t < 8; ++t) lo[t] = R(y[t]), hi[t] = R(y[8 + t]);
    transpose8(lo);
    transpose8(hi);
    for (int l = 0; l < 8; ++l) {
      store_split<1, 7>(base, e, l * stride - 8, lo[l]);
      store_split<0, 7>(base, e, l * stride, hi[l]);
    }
  } else if constexpr (Wd == 4 && sizeof(Pixel) == 1) {
    // h_4_8 at 8 bits: only p1 p0 q0 q1 change; interleave them into 4-byte rows instead of a full transpose.
    const R v01 = packus16(R(y[6]), R(y[7])), v23 = packus16(R(y[8]), R(y[9]));
    const R t0 = ulo8(v01, srl8(v01)), t1 = ulo8(v23, srl8(v23));
    const R lo = ulo16(t0, t1), hi = uhi16(t0, t1);  // rows 0-3 / 4-7 as 32-bit [p1 p0 q0 q1]
    store_rows4(base + e[0].offset - 2, stride, half<0>(lo), half<0>(hi));
    if constexpr (edges_per_vec == 2) store_rows4(base + e[1].offset - 2, stride, half<1>(lo), half<1>(hi));
  } else {
    R rows[8];
    for (int t = 0; t < 8; ++t) rows[t] = R(y[4 + t]);
    transpose8(rows);
    for (int l = 0; l < 8; ++l) store_split<4 - w, 2 * w>(base, e, l * stride - 4, rows[l]);
  }
}

// Filters n edges, n a multiple of edges_per_vec.
template <direction Dir, int Wd, bool Count, class Pixel>
void run(Pixel* base, std::ptrdiff_t stride, const edge* e, std::size_t n, int bd, counters& c) {
  for (std::size_t i = 0; i + edges_per_vec <= n; i += edges_per_vec) process<Dir, Wd, Count>(base, stride, e + i, bd, c);
}
