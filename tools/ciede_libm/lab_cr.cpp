// ciede's Lab stage (libvmaf's get_lab_color, as include/vqm/cpu/ciede.hpp writes it) for every YUV triple of a
// bit depth, once with glibc's pow and once with a correctly rounded pow (MPFR at 53 bits, round to nearest;
// screened with long double, MPFR only where the long double value is within 0.01 ULP of a rounding
// boundary). Prints how many pow calls differ and how many L, a, b floats differ (docs/spec-float-features.md,
// "ciede on Vulkan"). Not part of the build: MPFR's header need not be installed, its runtime suffices.
//   g++ -O2 -ffp-contract=off lab_cr.cpp -o lab_cr -l:libmpfr.so.6 && ./lab_cr 8 1    # bpc, luma stride
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
extern "C" {
typedef struct { long prec; int sign; long exp; unsigned long* d; } mpfr_s;
void mpfr_init2(mpfr_s*, long);
int mpfr_set_d(mpfr_s*, double, int);
int mpfr_pow(mpfr_s*, const mpfr_s*, const mpfr_s*, int);
double mpfr_get_d(const mpfr_s*, int);
}
static mpfr_s mx, my, mr;
static long screened = 0, mpfr_calls = 0, pow_diff = 0;
// CR pow(x, y) in double.
static double cr_pow(double x, double y, double glibc) {
  long double e = powl((long double)x, (long double)y);  // error < 1 ulp of 64-bit mantissa
  long double d = (long double)glibc;
  long double ulp = std::ldexp((long double)1, std::ilogb(glibc) - 52);
  long double off = std::fabs(e - d) / ulp;  // in double ulps
  if (off < 0.5L - 0.01L) { ++screened; return glibc; }
  ++mpfr_calls;
  mpfr_set_d(&mx, x, 0); mpfr_set_d(&my, y, 0); mpfr_pow(&mr, &mx, &my, 0);
  double c = mpfr_get_d(&mr, 0);
  if (c != glibc) ++pow_diff;
  return c;
}
template <bool CR>
static double p(double x, double y) { double g = std::pow(x, y); return CR ? cr_pow(x, y, g) : g; }
template <bool CR>
static double rgb(double c) { return c > 10. / 255. ? p<CR>((c + 0.055) * (1.0 / 1.055), 2.4) : c * (1.0 / 12.92); }
template <bool CR>
static double labmap(double c) {
  const double kappa = 24389.0 / 27.0, epsilon = 216.0 / 24389.0;
  if (c > epsilon) return (float)p<CR>(c, 1.0 / 3.0);
  return (float)((kappa * c + 16.0) * (1.0 / 116.0));
}
template <bool CR>
static void lab(double y, double u, double v, unsigned bpc, float* o) {
  const double scale = (double)(1 << (bpc - 8));
  y = (y - 16. * scale) * (1. / (219. * scale));
  u = (u - 128. * scale) * (1. / (224. * scale));
  v = (v - 128. * scale) * (1. / (224. * scale));
  double r = y + 1.28033 * v, g = y - 0.21482 * u - 0.38059 * v, b = y + 2.12798 * u;
  r = rgb<CR>(r); g = rgb<CR>(g); b = rgb<CR>(b);
  double x = r * 0.4124564390896921 + g * 0.357576077643909 + b * 0.18043748326639894;
  y = r * 0.21267285140562248 + g * 0.715152155287818 + b * 0.07217499330655958;
  double z = r * 0.019333895582329317 + g * 0.119192025881303 + b * 0.9503040785363677;
  x = labmap<CR>(x * (1.0 / 0.95047)); y = labmap<CR>(y); z = labmap<CR>(z * (1.0 / 1.08883));
  o[0] = (float)((116.0 * y) - 16.0); o[1] = (float)(500.0 * (x - y)); o[2] = (float)(200.0 * (y - z));
}
int main(int argc, char** argv) {
  unsigned bpc = argc > 1 ? atoi(argv[1]) : 8;
  unsigned stride = argc > 2 ? atoi(argv[2]) : 1;  // sample every stride-th y (for > 8 bits)
  mpfr_init2(&mx, 53); mpfr_init2(&my, 53); mpfr_init2(&mr, 53);
  const unsigned n = 1u << bpc;
  long lab_diff = 0, triples = 0;
  for (unsigned y = 0; y < n; y += stride)
    for (unsigned u = 0; u < n; ++u)
      for (unsigned v = 0; v < n; ++v) {
        float a[3], c[3];
        lab<false>(y, u, v, bpc, a);
        lab<true>(y, u, v, bpc, c);
        ++triples;
        if (a[0] != c[0] || a[1] != c[1] || a[2] != c[2]) {
          if (lab_diff < 5) std::printf("Lab differs at y=%u u=%u v=%u: %a %a %a vs %a %a %a\n", y, u, v, a[0], a[1], a[2], c[0], c[1], c[2]);
          ++lab_diff;
        }
      }
  std::printf("%u-bit: %ld triples, pow calls screened %ld, resolved by MPFR %ld, glibc != CR %ld, Lab differs %ld\n",
              bpc, triples, screened, mpfr_calls, pow_diff, lab_diff);
}
