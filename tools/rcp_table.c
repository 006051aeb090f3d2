// Dumps this CPU's RCPSS results for the 4,096 12-bit mantissa prefixes at exponent 0 and checks that
// the result depends only on sign, exponent and that prefix (scaled by powers of two).
#include <immintrin.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
static float rcp(float x) { return _mm_cvtss_f32(_mm_rcp_ss(_mm_set_ss(x))); }
static uint32_t bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float fl(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
int main(void) {
  uint32_t tab[4096]; int bad = 0;
  for (uint32_t p = 0; p < 4096; ++p) {
    tab[p] = bits(rcp(fl(0x3f800000u | (p << 11))));
    for (uint32_t lo = 1; lo < 2048; lo += 97)
      if (bits(rcp(fl(0x3f800000u | (p << 11) | lo))) != tab[p]) ++bad;
    for (int e = -100; e <= 100; e += 7) {  // scaling by 2^e: result scales by 2^-e
      float x = fl(((uint32_t)(127 + e) << 23) | (p << 11));
      float want = fl(tab[p] - ((uint32_t)e << 23));
      if (bits(rcp(x)) != bits(want)) ++bad;
      if (bits(rcp(-x)) != (bits(want) | 0x80000000u)) ++bad;
    }
  }
  printf("# nonprefix/scaling mismatches: %d\n", bad);
  printf("# rcp(1e-30)=%a rcp(3e38)=%a rcp(0)=%a rcp(1e-40)=%a rcp(inf)=%a\n", rcp(1e-30f), rcp(3e38f), rcp(0.0f), rcp(1e-40f), rcp(1.0f/0.0f));
  for (int p = 0; p < 4096; ++p) printf("%08x%c", tab[p], p % 8 == 7 ? '\n' : ' ');
  return 0;
}
