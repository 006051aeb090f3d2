// The exact serial binary32 sum s = fl(...fl(fl(0 + t0) + t1)... + tn) of non-negative terms, computed
// with work that parallelises ("binade skipping"). Reference for the GPU PSNR-HVS sum (shaders/hvs_sum.glsl
// mirrors every function here; docs/psnr_hvs_gpu.md has the proof).
//
// Idea: while s stays in one binade [2^(E-127), 2^(E-126)) with ulp u = 2^(E-150), s = m·u with integer
// m in [2^23, 2^24), and fl(s + t) = (m + q)·u with q = floor(t/u) + (frac > 1/2) + (frac == 1/2 and
// m + floor(t/u) odd) (round to nearest even), as long as m + q < 2^24. So the effect of a run of terms
// on s depends only on E and the parity of m: m -> m + Q_E(m & 1), and Q_E for both parities is integer
// work that any thread can do ahead of time and that composes associatively. The ordered walk then
// jumps over whole runs and adds term by term only where s leaves its binade.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace vqm::detail {

// The naive loop: libvmaf's accumulator.
[[nodiscard]] constexpr float naive_serial_sum(std::span<const float> terms, float s = 0.0f) noexcept {
  for (const float t : terms) s = s + t;
  return s;
}

// Increments of m reach 2^24 when s leaves its binade; saturating at 2^25 keeps uint32 sums exact.
inline constexpr std::uint32_t binade_saturated = 1u << 25;
inline constexpr std::uint32_t mantissa_limit = 1u << 24;

// Q for both start parities of m: m -> m + q[m & 1]. Values >= mantissa_limit mean "leaves the binade".
struct binade_q {
  std::uint32_t q[2] = {0, 0};
  friend constexpr bool operator==(const binade_q&, const binade_q&) = default;
};

[[nodiscard]] constexpr std::uint32_t sat_add(std::uint32_t a, std::uint32_t b) noexcept {
  const std::uint32_t s = a + b;  // both <= 2^25: no wrap
  return s < binade_saturated ? s : binade_saturated;
}

// Run a, then run b (associative: function composition on (parity, counter)).
[[nodiscard]] constexpr binade_q compose(const binade_q& a, const binade_q& b) noexcept {
  binade_q c;
  for (std::uint32_t p = 0; p < 2; ++p) c.q[p] = sat_add(a.q[p], b.q[(p + a.q[p]) & 1u]);
  return c;
}

// t/u for one finite term t >= 0 and binade E (1..254): floor and the class of the fraction
// (0: < 1/2, 1: == 1/2, 2: > 1/2). Floors >= 2^25 saturate (the binade is left anyway).
struct term_split {
  std::uint32_t floor = 0;
  std::uint32_t cls = 0;
};

[[nodiscard]] constexpr term_split split_term(std::uint32_t t_bits, int e) noexcept {
  const int et = static_cast<int>((t_bits >> 23) & 0xffu);
  const std::uint32_t frac = t_bits & 0x7fffffu;
  const std::uint32_t mt = et == 0 ? frac : (frac | 0x800000u);  // t = mt · 2^(max(et,1) − 150)
  const int sh = (et == 0 ? 1 : et) - e;                            // t/u = mt · 2^sh
  if (mt == 0) return {0, 0};
  if (sh >= 2) return {binade_saturated, 0};  // mt >= 2^23 here (sh >= 2 needs a normal t): >= 2^25
  if (sh >= 0) return {mt << sh, 0};
  const int d = -sh;
  if (d >= 25) return {0, 0};  // mt < 2^24, so t/u < 1/2
  const std::uint32_t rem = mt & ((1u << d) - 1u), half = 1u << (d - 1);
  return {mt >> d, rem < half ? 0u : (rem == half ? 1u : 2u)};
}

// The q of one term for the current mantissa parity `par`.
[[nodiscard]] constexpr std::uint32_t term_q(const term_split& x, std::uint32_t par) noexcept {
  return x.floor + (x.cls == 2u ? 1u : 0u) + (x.cls == 1u ? ((par + x.floor) & 1u) : 0u);
}

// Q of one term, both parities.
[[nodiscard]] constexpr binade_q term_binade_q(std::uint32_t t_bits, int e) noexcept {
  const term_split x = split_term(t_bits, e);
  return {{term_q(x, 0), term_q(x, 1)}};
}

// Q_E of a run, sequentially: the counter k_p tracks m − m_start, so the current parity is (p + k_p) & 1.
[[nodiscard]] constexpr binade_q run_binade_q(std::span<const float> terms, int e) noexcept {
  binade_q k;
  for (const float t : terms) {
    const term_split x = split_term(std::bit_cast<std::uint32_t>(t), e);
    for (std::uint32_t p = 0; p < 2; ++p) k.q[p] = sat_add(k.q[p], term_q(x, (p + k.q[p]) & 1u));
  }
  return k;
}

// A run's table: Q for the three binades e_base, e_base + 1, e_base + 2 (around where s is expected to be
// when the run starts), plus flags. 8 words, the std430 layout the shaders use.
inline constexpr std::uint32_t run_all_zero = 1u;   // every term is +0: the run leaves any s unchanged
inline constexpr std::uint32_t run_serial = 2u;     // a negative, -0, infinite or NaN term: never jump
inline constexpr int run_candidates = 3;
inline constexpr std::int32_t no_binade = -1000;    // e_base when no estimate exists (s is then 0)

struct run_table {
  std::int32_t e_base = no_binade;
  std::uint32_t flags = 0;
  binade_q q[run_candidates]{};
};
static_assert(sizeof(run_table) == 32);

// Flags of one term (all-zero survives only if every term has it; serial if any has it).
[[nodiscard]] constexpr std::uint32_t term_flags(std::uint32_t t_bits) noexcept {
  if (t_bits == 0u) return run_all_zero;
  if ((t_bits >> 31) != 0u || ((t_bits >> 23) & 0xffu) == 0xffu) return run_serial;
  return 0u;
}

// The binade base from an estimate of s at the run start (any value is correct; a good one saves work):
// the float exponent of est, minus 1.
[[nodiscard]] constexpr std::int32_t binade_base_for(double est) noexcept {
  if (!(est > 0.0) || est > 3.0e38) return no_binade;
  const auto bits = std::bit_cast<std::uint64_t>(est);
  const int de = static_cast<int>((bits >> 52) & 0x7ffu);
  return de - 1023 + 127 - 1;  // may be <= 0 for tiny estimates: those candidates are simply invalid
}

[[nodiscard]] constexpr bool binade_valid(int e) noexcept { return e >= 1 && e <= 254; }

[[nodiscard]] constexpr run_table make_run_table(std::span<const float> terms, double est) noexcept {
  run_table r;
  r.e_base = binade_base_for(est);
  r.flags = run_all_zero;
  for (const float t : terms) {
    const std::uint32_t f = term_flags(std::bit_cast<std::uint32_t>(t));
    r.flags = (r.flags & f & run_all_zero) | ((r.flags | f) & run_serial);
  }
  for (int c = 0; c < run_candidates; ++c) {
    const int e = r.e_base + c;
    if (r.e_base == no_binade || !binade_valid(e) || (r.flags & run_serial) != 0u)
      r.q[c] = {{binade_saturated, binade_saturated}};
    else
      r.q[c] = run_binade_q(terms, e);
  }
  return r;
}

// Jumps s over a run if its table allows; false means "add this run's terms another way".
[[nodiscard]] constexpr bool try_jump(float& s, const run_table& r) noexcept {
  if ((r.flags & run_all_zero) != 0u) return true;
  if ((r.flags & run_serial) != 0u) return false;
  const std::uint32_t bits = std::bit_cast<std::uint32_t>(s);
  const int e = static_cast<int>((bits >> 23) & 0xffu);
  if ((bits >> 31) != 0u || e == 0 || e == 255) return false;  // 0, subnormal, negative, inf, NaN
  const int c = e - r.e_base;
  if (r.e_base == no_binade || c < 0 || c >= run_candidates) return false;
  const std::uint32_t m = (bits & 0x7fffffu) | 0x800000u;
  const std::uint32_t q = r.q[c].q[m & 1u];
  if (m + q >= mantissa_limit) return false;
  s = std::bit_cast<float>(bits + q);  // m + q < 2^24: the exponent field is untouched
  return true;
}

// The hierarchical walk the GPU does: level 1 runs are `leaf` terms, a level-l run (l > 1) is `fan` runs of
// level l − 1 (the last one of each level may be short). Counters say how much work the walk did.
struct walk_stats {
  std::size_t jumps = 0;         // runs skipped by a table
  std::size_t serial_terms = 0;  // terms added one by one
};

class hierarchical_sum {
 public:
  hierarchical_sum(std::size_t leaf, std::size_t fan, int levels) : leaf_(leaf), fan_(fan), levels_(levels) {}

  // Builds the tables (the parallel part) with estimates from double prefix sums at run starts.
  [[nodiscard]] float operator()(std::span<const float> terms, walk_stats* stats = nullptr) const {
    const std::size_t n = terms.size();
    std::vector<double> prefix(n / leaf_ + 2, 0.0);  // exclusive prefix at leaf starts
    {
      double acc = 0.0;
      for (std::size_t i = 0, b = 0; i < n; ++i) {
        if (i % leaf_ == 0) prefix[b++] = acc;
        acc += static_cast<double>(terms[i]);
      }
    }
    std::vector<std::vector<run_table>> tables(static_cast<std::size_t>(levels_));
    std::vector<std::size_t> size(static_cast<std::size_t>(levels_));
    for (int l = 0; l < levels_; ++l) {
      size[l] = l == 0 ? leaf_ : size[l - 1] * fan_;
      const std::size_t runs = (n + size[l] - 1) / size[l];
      tables[l].resize(runs);
      for (std::size_t r = 0; r < runs; ++r) {
        const std::size_t begin = r * size[l], len = std::min(size[l], n - begin);
        tables[l][r] = make_run_table(terms.subspan(begin, len), prefix[begin / leaf_]);
      }
    }
    // The ordered walk: try the largest run that starts at pos, descend on failure, add terms at the leaves.
    float s = 0.0f;
    walk_stats st;
    std::size_t pos = 0;
    int l = levels_ - 1;
    while (pos < n) {
      const std::size_t len = std::min(size[l], n - pos);
      if (try_jump(s, tables[l][pos / size[l]])) {
        ++st.jumps;
      } else if (l > 0) {
        --l;
        continue;
      } else {
        for (std::size_t i = pos; i < pos + len; ++i) s = s + terms[i];
        st.serial_terms += len;
      }
      pos += len;
      while (l + 1 < levels_ && pos % size[l + 1] == 0) ++l;
    }
    if (stats) *stats = st;
    return s;
  }

 private:
  std::size_t leaf_, fan_;
  int levels_;
};

// The one-level form: runs of `chunk` terms.
[[nodiscard]] inline float chunked_serial_sum(std::span<const float> terms, std::size_t chunk, walk_stats* stats = nullptr) {
  return hierarchical_sum(chunk, 1, 1)(terms, stats);
}

}  // namespace vqm::detail
