// Body of the x86 integer SSE kernels (cpu/sse.hpp), included by x86/sse.hpp once per instruction set,
// inside namespace sse2 or avx2 (`bytes` per register). No include guard on purpose.
//
// Differences as int16, pmaddwd for the squares, int32 lane sums widened to uint64 before they could
// overflow; the row tails run the scalar loop.

// 8 bit: a pmaddwd lane is at most 2·255², so 8192 rounds of two per lane stay below 2^32.
[[gnu::flatten]] inline std::uint64_t sse8(const plane_view& a, const plane_view& b) noexcept {
  u64v acc64{};
  const std::uint32_t w = a.width, vec_end = w & ~(bytes - 1u);
  std::uint64_t tail = 0;
  for (std::uint32_t y = 0; y < a.height; ++y) {
    const auto* ra = a.row<std::uint8_t>(y);
    const auto* rb = b.row<std::uint8_t>(y);
    i32v acc32{};
    std::uint32_t rounds = 0;
    for (std::uint32_t x = 0; x < vec_end; x += bytes) {
      const u8v va = load<u8v>(ra + x), vb = load<u8v>(rb + x);
      const i16v dlo = widen<false>(va) - widen<false>(vb), dhi = widen<true>(va) - widen<true>(vb);
      acc32 += madd(dlo, dlo) + madd(dhi, dhi);
      if (++rounds == 8192 || x + bytes >= vec_end) {
        acc64 = add_widened(acc64, acc32);
        acc32 = i32v{};
        rounds = 0;
      }
    }
    tail += sse_row_scalar(ra, rb, vec_end, w);
  }
  for (int i = 0; i < bytes / 8; ++i) tail += acc64[i];
  return tail;
}

// 9..15 bit: differences fit int16 and a pmaddwd lane fits int32; widened every round.
[[gnu::flatten]] inline std::uint64_t sse16(const plane_view& a, const plane_view& b) noexcept {
  u64v acc64{};
  const std::uint32_t w = a.width, vec_end = w & ~(bytes / 2 - 1u);
  std::uint64_t tail = 0;
  for (std::uint32_t y = 0; y < a.height; ++y) {
    const auto* ra = a.row<std::uint16_t>(y);
    const auto* rb = b.row<std::uint16_t>(y);
    for (std::uint32_t x = 0; x < vec_end; x += bytes / 2) {
      const i16v d = load<i16v>(ra + x) - load<i16v>(rb + x);
      acc64 = add_widened(acc64, madd(d, d));
    }
    tail += sse_row_scalar(ra, rb, vec_end, w);
  }
  for (int i = 0; i < bytes / 8; ++i) tail += acc64[i];
  return tail;
}
