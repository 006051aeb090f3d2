// 8-bit-lane body of the Cpu path for lpf_{h,v}_4_8 on uint8 planes at bit depth 8, included by simd.hpp
// once per instruction set with VQM_LPF_LANES = 16 (SSE2: 2 edges per register, one per 64-bit half) or
// 32 (AVX2: 4 edges). No include guard on purpose.
//
// Arithmetic: libvpx's saturating int8 formulation (SPEC §4.2), which equals the clamp formulation of
// §4.1 for every input when E <= 254 (the contract; at E = 255 the saturated 2|p0-q0| + |p1-q1|/2 would
// pass). Masks are 0x00/0xFF bytes.
//
// lpf_h: a 16x8 (SSE2) or 2 x 16x8 (AVX2) byte transpose turns 8 rows x 8 taps of each edge into one
// register per tap; after the filter only p1 p0 q0 q1 are interleaved back into 4-byte rows.

#if VQM_LPF_LANES == 16
using B = __m128i;
[[gnu::always_inline]] inline B b_set1(int v) { return _mm_set1_epi8(char(v)); }
[[gnu::always_inline]] inline B b_zero() { return _mm_setzero_si128(); }
[[gnu::always_inline]] inline B b_and(B a, B b) { return _mm_and_si128(a, b); }
[[gnu::always_inline]] inline B b_andnot(B a, B b) { return _mm_andnot_si128(a, b); }  // ~a & b
[[gnu::always_inline]] inline B b_or(B a, B b) { return _mm_or_si128(a, b); }
[[gnu::always_inline]] inline B b_xor(B a, B b) { return _mm_xor_si128(a, b); }
[[gnu::always_inline]] inline B subs_u8(B a, B b) { return _mm_subs_epu8(a, b); }
[[gnu::always_inline]] inline B adds_u8(B a, B b) { return _mm_adds_epu8(a, b); }
[[gnu::always_inline]] inline B subs_i8(B a, B b) { return _mm_subs_epi8(a, b); }
[[gnu::always_inline]] inline B adds_i8(B a, B b) { return _mm_adds_epi8(a, b); }
[[gnu::always_inline]] inline B add_i8(B a, B b) { return _mm_add_epi8(a, b); }
[[gnu::always_inline]] inline B sub_i8(B a, B b) { return _mm_sub_epi8(a, b); }
[[gnu::always_inline]] inline B max_u8(B a, B b) { return _mm_max_epu8(a, b); }
[[gnu::always_inline]] inline B avg_u8(B a, B b) { return _mm_avg_epu8(a, b); }
[[gnu::always_inline]] inline B eq8(B a, B b) { return _mm_cmpeq_epi8(a, b); }
[[gnu::always_inline]] inline B srli16(B a, int n) { return _mm_srli_epi16(a, n); }
[[gnu::always_inline]] inline B u8lo(B a, B b) { return _mm_unpacklo_epi8(a, b); }
[[gnu::always_inline]] inline B u8hi(B a, B b) { return _mm_unpackhi_epi8(a, b); }
[[gnu::always_inline]] inline B u16lo(B a, B b) { return _mm_unpacklo_epi16(a, b); }
[[gnu::always_inline]] inline B u16hi(B a, B b) { return _mm_unpackhi_epi16(a, b); }
[[gnu::always_inline]] inline B u32lo(B a, B b) { return _mm_unpacklo_epi32(a, b); }
[[gnu::always_inline]] inline B u32hi(B a, B b) { return _mm_unpackhi_epi32(a, b); }
[[gnu::always_inline]] inline B u64lo(B a, B b) { return _mm_unpacklo_epi64(a, b); }
[[gnu::always_inline]] inline B u64hi(B a, B b) { return _mm_unpackhi_epi64(a, b); }
[[gnu::always_inline]] inline int b_count(B m) { return __builtin_popcount(unsigned(_mm_movemask_epi8(m))); }
[[gnu::always_inline]] inline void b_store(void* p, B v) { _mm_store_si128(static_cast<__m128i*>(p), v); }
#else
using B = __m256i;
[[gnu::always_inline]] inline B b_set1(int v) { return _mm256_set1_epi8(char(v)); }
[[gnu::always_inline]] inline B b_zero() { return _mm256_setzero_si256(); }
[[gnu::always_inline]] inline B b_and(B a, B b) { return _mm256_and_si256(a, b); }
[[gnu::always_inline]] inline B b_andnot(B a, B b) { return _mm256_andnot_si256(a, b); }
[[gnu::always_inline]] inline B b_or(B a, B b) { return _mm256_or_si256(a, b); }
[[gnu::always_inline]] inline B b_xor(B a, B b) { return _mm256_xor_si256(a, b); }
[[gnu::always_inline]] inline B subs_u8(B a, B b) { return _mm256_subs_epu8(a, b); }
[[gnu::always_inline]] inline B adds_u8(B a, B b) { return _mm256_adds_epu8(a, b); }
[[gnu::always_inline]] inline B subs_i8(B a, B b) { return _mm256_subs_epi8(a, b); }
[[gnu::always_inline]] inline B adds_i8(B a, B b) { return _mm256_adds_epi8(a, b); }
[[gnu::always_inline]] inline B add_i8(B a, B b) { return _mm256_add_epi8(a, b); }
[[gnu::always_inline]] inline B sub_i8(B a, B b) { return _mm256_sub_epi8(a, b); }
[[gnu::always_inline]] inline B max_u8(B a, B b) { return _mm256_max_epu8(a, b); }
[[gnu::always_inline]] inline B avg_u8(B a, B b) { return _mm256_avg_epu8(a, b); }
[[gnu::always_inline]] inline B eq8(B a, B b) { return _mm256_cmpeq_epi8(a, b); }
[[gnu::always_inline]] inline B srli16(B a, int n) { return _mm256_srli_epi16(a, n); }
[[gnu::always_inline]] inline B u8lo(B a, B b) { return _mm256_unpacklo_epi8(a, b); }
[[gnu::always_inline]] inline B u8hi(B a, B b) { return _mm256_unpackhi_epi8(a, b); }
[[gnu::always_inline]] inline B u16lo(B a, B b) { return _mm256_unpacklo_epi16(a, b); }
[[gnu::always_inline]] inline B u16hi(B a, B b) { return _mm256_unpackhi_epi16(a, b); }
[[gnu::always_inline]] inline B u32lo(B a, B b) { return _mm256_unpacklo_epi32(a, b); }
[[gnu::always_inline]] inline B u32hi(B a, B b) { return _mm256_unpackhi_epi32(a, b); }
[[gnu::always_inline]] inline B u64lo(B a, B b) { return _mm256_unpacklo_epi64(a, b); }
[[gnu::always_inline]] inline B u64hi(B a, B b) { return _mm256_unpackhi_epi64(a, b); }
[[gnu::always_inline]] inline int b_count(B m) { return __builtin_popcount(unsigned(_mm256_movemask_epi8(m))); }
[[gnu::always_inline]] inline void b_store(void* p, B v) { _mm256_store_si256(static_cast<__m256i*>(p), v); }
#endif

inline constexpr int u8_edges_per_vec = VQM_LPF_LANES / 8;

// Two 8-byte rows (edges a, b) in one 128-bit register: a in the low half.
[[gnu::always_inline]] inline __m128i load_pair(const std::uint8_t* a, const std::uint8_t* b) {
  // Both halves through _mm_loadl_epi64 (an unaligned 8-byte load): _mm_loadh_pd would dereference a
  // misaligned double*, undefined behaviour that UBSan reports.
  const __m128i lo = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(a));
  const __m128i hi = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(b));
  return _mm_unpacklo_epi64(lo, hi);
}
// 8 bytes at p[e_i.offset + rel] of each edge, edge i in byte lanes [8i, 8i + 8).
[[gnu::always_inline]] inline B load_edges(const std::uint8_t* base, const edge* e, std::ptrdiff_t rel) {
#if VQM_LPF_LANES == 16
  return load_pair(base + e[0].offset + rel, base + e[1].offset + rel);
#else
  const __m128i lo = load_pair(base + e[0].offset + rel, base + e[1].offset + rel);
  const __m128i hi = load_pair(base + e[2].offset + rel, base + e[3].offset + rel);
  return _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
#endif
}
// 16 bytes at p[e_i.offset + rel]: x0 gets edges 0 (and 2 in the upper lane), x1 edges 1 (and 3).
[[gnu::always_inline]] inline void load16_edges(const std::uint8_t* base, const edge* e, std::ptrdiff_t rel, B& x0, B& x1) {
  auto ld = [&](int i) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(base + e[i].offset + rel)); };
#if VQM_LPF_LANES == 16
  x0 = ld(0), x1 = ld(1);
#else
  x0 = _mm256_inserti128_si256(_mm256_castsi128_si256(ld(0)), ld(2), 1);
  x1 = _mm256_inserti128_si256(_mm256_castsi128_si256(ld(1)), ld(3), 1);
#endif
}
[[gnu::always_inline]] inline std::uint32_t min_offset(const edge* e) {
  std::uint32_t m = e[0].offset;
  for (int i = 1; i < u8_edges_per_vec; ++i) m = e[i].offset < m ? e[i].offset : m;
  return m;
}
[[gnu::always_inline]] inline void store_pair(std::uint8_t* a, std::uint8_t* b, __m128i v) {
  _mm_storel_epi64(reinterpret_cast<__m128i*>(a), v);
  _mm_storel_epi64(reinterpret_cast<__m128i*>(b), _mm_unpackhi_epi64(v, v));
}
[[gnu::always_inline]] inline void store_edges(std::uint8_t* base, const edge* e, std::ptrdiff_t rel, B v) {
#if VQM_LPF_LANES == 16
  store_pair(base + e[0].offset + rel, base + e[1].offset + rel, v);
#else
  store_pair(base + e[0].offset + rel, base + e[1].offset + rel, _mm256_castsi256_si128(v));
  store_pair(base + e[2].offset + rel, base + e[3].offset + rel, _mm256_extracti128_si256(v, 1));
#endif
}
// Per-edge byte splats of E, I and H: edge i's value in byte lanes [8i, 8i + 8). The records are loaded
// as a vector (8 bytes each: offset, E, I, H, flags) and their bytes 4, 5, 6 broadcast in place.
[[gnu::always_inline]] inline void splat_thresholds(const edge* e, B& E, B& I, B& H) {
  static_assert(sizeof(edge) == 8 && offsetof(edge, E) == 4 && offsetof(edge, I) == 5 && offsetof(edge, H) == 6);
#if VQM_LPF_LANES == 16
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(e));
  // Words 2 (E | I << 8) and 3 (H | flags << 8) of each record, broadcast over its 64-bit half.
  const __m128i ei = _mm_shufflehi_epi16(_mm_shufflelo_epi16(v, 0xAA), 0xAA);
  const __m128i hf = _mm_shufflehi_epi16(_mm_shufflelo_epi16(v, 0xFF), 0xFF);
  const __m128i lo = _mm_set1_epi16(0x00FF);
  const __m128i e8 = _mm_and_si128(ei, lo), i8 = _mm_srli_epi16(ei, 8), h8 = _mm_and_si128(hf, lo);
  E = _mm_or_si128(e8, _mm_slli_epi16(e8, 8));
  I = _mm_or_si128(i8, _mm_slli_epi16(i8, 8));
  H = _mm_or_si128(h8, _mm_slli_epi16(h8, 8));
#else
  const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(e));
  E = _mm256_shuffle_epi8(v, _mm256_set_epi64x(0x0C0C0C0C0C0C0C0Cll, 0x0404040404040404ll, 0x0C0C0C0C0C0C0C0Cll, 0x0404040404040404ll));
  I = _mm256_shuffle_epi8(v, _mm256_set_epi64x(0x0D0D0D0D0D0D0D0Dll, 0x0505050505050505ll, 0x0D0D0D0D0D0D0D0Dll, 0x0505050505050505ll));
  H = _mm256_shuffle_epi8(v, _mm256_set_epi64x(0x0E0E0E0E0E0E0E0Ell, 0x0606060606060606ll, 0x0E0E0E0E0E0E0E0Ell, 0x0606060606060606ll));
#endif
}

[[gnu::always_inline]] inline B absdiff_u8(B a, B b) { return b_or(subs_u8(a, b), subs_u8(b, a)); }
// Arithmetic >> 3 of int8 lanes (x86 has no byte shift): shift as 16 bit, mask, sign-extend from bit 4.
[[gnu::always_inline]] inline B srai3_i8(B x) {
  const B t = b_and(srli16(x, 3), b_set1(0x1F));
  return sub_i8(b_xor(t, b_set1(0x10)), b_set1(0x10));
}

// x[0..7] = p3 p2 p1 p0 q0 q1 q2 q3 (u8 lanes, one per line); writes the new p1 p0 q0 q1 into x[2..5].
template <bool Count>
[[gnu::always_inline]] inline void filter4_u8(B* x, B E, B I, B H, counters& c) {
  const B p3 = x[0], p2 = x[1], p1 = x[2], p0 = x[3], q0 = x[4], q1 = x[5], q2 = x[6], q3 = x[7];
  const B zero = b_zero();
  const B d_p1p0 = absdiff_u8(p1, p0), d_q1q0 = absdiff_u8(q1, q0);
  B m = max_u8(d_p1p0, d_q1q0);
  const B nhev = eq8(subs_u8(m, H), zero);  // !hev: max(|p1-p0|, |q1-q0|) <= H
  m = max_u8(m, max_u8(absdiff_u8(p3, p2), absdiff_u8(p2, p1)));
  m = max_u8(m, max_u8(absdiff_u8(q2, q1), absdiff_u8(q3, q2)));
  // 2|p0-q0| + |p1-q1|/2 with unsigned saturation: a saturated 255 fails <= E for every E <= 254.
  const B d_p0q0 = absdiff_u8(p0, q0);
  const B half_p1q1 = b_and(srli16(absdiff_u8(p1, q1), 1), b_set1(0x7F));
  const B edge_sum = adds_u8(adds_u8(d_p0q0, d_p0q0), half_p1q1);
  const B fm = b_and(eq8(subs_u8(m, I), zero), eq8(subs_u8(edge_sum, E), zero));

  const B bias = b_set1(-128);
  const B ps1 = b_xor(p1, bias), ps0 = b_xor(p0, bias), qs0 = b_xor(q0, bias), qs1 = b_xor(q1, bias);
  const B a = b_andnot(nhev, subs_i8(ps1, qs1));
  const B d = subs_i8(qs0, ps0);
  const B f = b_and(adds_i8(adds_i8(adds_i8(a, d), d), d), fm);
  const B f1 = srai3_i8(adds_i8(f, b_set1(4)));
  const B f2 = srai3_i8(adds_i8(f, b_set1(3)));
  x[4] = b_xor(subs_i8(qs0, f1), bias);
  x[3] = b_xor(adds_i8(ps0, f2), bias);
  // g = (f1 + 1) >> 1 via the unsigned average: avg(f1 + 128, 128) = ((f1 + 1) >> 1) + 128.
  const B g = b_and(nhev, b_xor(avg_u8(b_xor(f1, bias), bias), bias));
  x[5] = b_xor(subs_i8(qs1, g), bias);
  x[2] = b_xor(adds_i8(ps1, g), bias);

  if constexpr (Count) {
    const int nfm = b_count(fm), n2 = b_count(b_andnot(nhev, fm));
    c.lines += VQM_LPF_LANES;
    c.fm += nfm;
    c.hev_fm += n2;
    c.skip += VQM_LPF_LANES - nfm;
    c.f4_2px += n2;
    c.f4_4px += nfm - n2;
  }
}

template <direction Dir, bool Count>
[[gnu::always_inline]] inline void process_u8_4(std::uint8_t* base, std::ptrdiff_t stride, const edge* e, counters& c) {
  B x[8];
  if constexpr (Dir == direction::v) {
    for (int k = -4; k < 4; ++k) x[4 + k] = load_edges(base, e, k * stride);
  } else {
    // a_j / b_j: rows 2j, 2j+1 of the first / second edge of each 128-bit lane, byte-interleaved.
    B a0, a1, a2, a3, b0, b1, b2, b3;
    if (min_offset(e) >= 12) {
      // 16-byte loads ending at q3 (inside the buffer by the contract); the taps are their upper halves.
      B x0[8], x1[8];
      for (int l = 0; l < 8; ++l) load16_edges(base, e, l * stride - 12, x0[l], x1[l]);
      a0 = u8hi(x0[0], x0[1]), a1 = u8hi(x0[2], x0[3]), a2 = u8hi(x0[4], x0[5]), a3 = u8hi(x0[6], x0[7]);
      b0 = u8hi(x1[0], x1[1]), b1 = u8hi(x1[2], x1[3]), b2 = u8hi(x1[4], x1[5]), b3 = u8hi(x1[6], x1[7]);
    } else {  // too close to the start of the buffer for that: 8-byte loads
      B r[8];
      for (int l = 0; l < 8; ++l) r[l] = load_edges(base, e, l * stride - 4);
      a0 = u8lo(r[0], r[1]), a1 = u8lo(r[2], r[3]), a2 = u8lo(r[4], r[5]), a3 = u8lo(r[6], r[7]);
      b0 = u8hi(r[0], r[1]), b1 = u8hi(r[2], r[3]), b2 = u8hi(r[4], r[5]), b3 = u8hi(r[6], r[7]);
    }
    // Byte transpose per 128-bit lane -> x[t] = [first edge tap t rows 0-7 | second edge tap t rows 0-7].
    const B a01l = u16lo(a0, a1), a01h = u16hi(a0, a1), a23l = u16lo(a2, a3), a23h = u16hi(a2, a3);
    const B b01l = u16lo(b0, b1), b01h = u16hi(b0, b1), b23l = u16lo(b2, b3), b23h = u16hi(b2, b3);
    const B at01 = u32lo(a01l, a23l), at23 = u32hi(a01l, a23l), at45 = u32lo(a01h, a23h), at67 = u32hi(a01h, a23h);
    const B bt01 = u32lo(b01l, b23l), bt23 = u32hi(b01l, b23l), bt45 = u32lo(b01h, b23h), bt67 = u32hi(b01h, b23h);
    x[0] = u64lo(at01, bt01), x[1] = u64hi(at01, bt01), x[2] = u64lo(at23, bt23), x[3] = u64hi(at23, bt23);
    x[4] = u64lo(at45, bt45), x[5] = u64hi(at45, bt45), x[6] = u64lo(at67, bt67), x[7] = u64hi(at67, bt67);
  }
  B E, I, H;
  splat_thresholds(e, E, I, H);
  filter4_u8<Count>(x, E, I, H, c);
  if constexpr (Dir == direction::v) {
    for (int k = -2; k < 2; ++k) store_edges(base, e, k * stride, x[4 + k]);
  } else {
    // Back to rows of 4 bytes [p1 p0 q0 q1]: w[j] holds rows 4j'..4j'+3 of one edge as 32-bit elements.
    const B pa = u8lo(x[2], x[3]), qa = u8lo(x[4], x[5]), pb = u8hi(x[2], x[3]), qb = u8hi(x[4], x[5]);
    alignas(32) std::uint32_t w[4][VQM_LPF_LANES / 4];
    b_store(w[0], u16lo(pa, qa));
    b_store(w[1], u16hi(pa, qa));
    b_store(w[2], u16lo(pb, qb));
    b_store(w[3], u16hi(pb, qb));
    // Per 128-bit lane h (edges 2h, 2h+1): w[0] rows 0-3 / w[1] rows 4-7 of edge 2h, w[2] / w[3] of edge 2h+1.
    for (int i = 0; i < u8_edges_per_vec; ++i) {
      std::uint8_t* q = base + e[i].offset - 2;
      const int lane = (i >> 1) * 4, lo = (i & 1) * 2;
      for (int l = 0; l < 4; ++l) {
        std::memcpy(q + l * stride, &w[lo][lane + l], 4);
        std::memcpy(q + (l + 4) * stride, &w[lo + 1][lane + l], 4);
      }
    }
  }
}

// Filters n edges (n a multiple of u8_edges_per_vec) of lpf_<Dir>_4_8 on an 8-bit plane.
template <direction Dir, bool Count>
void run_u8_4(std::uint8_t* base, std::ptrdiff_t stride, const edge* e, std::size_t n, counters& c) {
  for (std::size_t i = 0; i + u8_edges_per_vec <= n; i += u8_edges_per_vec) process_u8_4<Dir, Count>(base, stride, e + i, c);
}
