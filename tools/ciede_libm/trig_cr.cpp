// glibc's sin/cos against correctly rounded (MPFR) over every stride-th float of a range, as ciede's ΔE calls
// them (sin_half: sin(x/2) of a float x; sin, cos: of a float). docs/spec-float-features.md, "ciede on Vulkan".
//   g++ -O2 -ffp-contract=off trig_cr.cpp -o trig_cr -l:libmpfr.so.6 && ./trig_cr sin_half -6.3 6.3 4096
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
extern "C" {
typedef struct { long prec; int sign; long exp; unsigned long* d; } mpfr_s;
void mpfr_init2(mpfr_s*, long);
int mpfr_set_d(mpfr_s*, double, int);
int mpfr_sin(mpfr_s*, const mpfr_s*, int);
int mpfr_cos(mpfr_s*, const mpfr_s*, int);
double mpfr_get_d(const mpfr_s*, int);
}
int main(int argc, char** argv) {
  const char* fn = argv[1];
  const float lo = strtof(argv[2], nullptr), hi = strtof(argv[3], nullptr);
  const unsigned stride = atoi(argv[4]);
  mpfr_s x, r; mpfr_init2(&x, 53); mpfr_init2(&r, 53);
  long n = 0, diff = 0, fdiff = 0;
  for (float f = lo; f <= hi; ) {
    double a = strcmp(fn, "sin_half") == 0 ? (double)f / 2.0 : (double)f;
    double g; long double e;
    if (fn[0] == 's') { g = std::sin(a); e = sinl(a); } else { g = std::cos(a); e = cosl(a); }
    ++n;
    long double ulp = std::ldexp((long double)1, std::ilogb(g) - 52);
    if (g != 0 && std::fabs(e - (long double)g) / ulp >= 0.49L) {
      mpfr_set_d(&x, a, 0);
      if (fn[0] == 's') mpfr_sin(&r, &x, 0); else mpfr_cos(&r, &x, 0);
      double c = mpfr_get_d(&r, 0);
      if (c != g) { ++diff; if ((float)c != (float)g) ++fdiff; if (diff <= 3) std::printf("  %s(%a): glibc %a CR %a\n", fn, a, g, c); }
    }
    uint32_t u; std::memcpy(&u, &f, 4);
    if (f >= 0) u += stride; else if (u - stride < 0x80000000u || u < stride) { f = 0.0f; continue; } else u -= stride;
    std::memcpy(&f, &u, 4);
  }
  std::printf("%s over [%g, %g] every %u-th float: %ld args, glibc != CR %ld (of which the float rounding differs %ld)\n", fn, lo, hi, stride, n, diff, fdiff);
}
