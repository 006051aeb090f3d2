// libvmaf's Lab (glibc pow) of every 8-bit YUV triple, written to a file (w) or compared with one (c): run it
// once as is (glibc's FMA variants on an FMA CPU) and once with them masked, e.g.
//   g++ -O2 -ffp-contract=off lab_fma.cpp -o lab_fma && ./lab_fma w lab.bin &&
//   GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-FMA ./lab_fma c lab.bin      (docs/spec-float-features.md)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
static double rgb(double c) { return c > 10. / 255. ? std::pow((c + 0.055) * (1.0 / 1.055), 2.4) : c * (1.0 / 12.92); }
static double labmap(double c) {
  if (c > 216.0 / 24389.0) return (float)std::pow(c, 1.0 / 3.0);
  return (float)((24389.0 / 27.0 * c + 16.0) * (1.0 / 116.0));
}
int main(int argc, char** argv) {
  const unsigned bpc = 8, n = 256;
  std::vector<float> out; out.reserve(3u * n * n * n);
  std::vector<double> pw; pw.reserve(6u * n * n * n);
  for (unsigned Y = 0; Y < n; ++Y) for (unsigned U = 0; U < n; ++U) for (unsigned V = 0; V < n; ++V) {
    const double scale = (double)(1 << (bpc - 8));
    double y = (Y - 16. * scale) * (1. / (219. * scale)), u = (U - 128. * scale) * (1. / (224. * scale)), v = (V - 128. * scale) * (1. / (224. * scale));
    double r = rgb(y + 1.28033 * v), g = rgb(y - 0.21482 * u - 0.38059 * v), b = rgb(y + 2.12798 * u);
    pw.push_back(r); pw.push_back(g); pw.push_back(b);
    double x = r * 0.4124564390896921 + g * 0.357576077643909 + b * 0.18043748326639894;
    y = r * 0.21267285140562248 + g * 0.715152155287818 + b * 0.07217499330655958;
    double z = r * 0.019333895582329317 + g * 0.119192025881303 + b * 0.9503040785363677;
    x = labmap(x * (1.0 / 0.95047)); y = labmap(y); z = labmap(z * (1.0 / 1.08883));
    out.push_back((float)((116.0 * y) - 16.0)); out.push_back((float)(500.0 * (x - y))); out.push_back((float)(200.0 * (y - z)));
  }
  if (argv[1][0] == 'w') {
    FILE* f = fopen(argv[2], "wb"); fwrite(out.data(), 4, out.size(), f); fwrite(pw.data(), 8, pw.size(), f); fclose(f);
  } else {
    std::vector<float> o(out.size()); std::vector<double> p(pw.size());
    FILE* f = fopen(argv[2], "rb"); if (fread(o.data(), 4, o.size(), f) != o.size() || fread(p.data(), 8, p.size(), f) != p.size()) return 2; fclose(f);
    long dl = 0, dp = 0;
    for (size_t i = 0; i < o.size(); ++i) dl += o[i] != out[i];
    for (size_t i = 0; i < p.size(); ++i) dp += p[i] != pw[i];
    std::printf("Lab floats differing: %ld of %zu; pow(.,2.4) results differing: %ld of %zu\n", dl, o.size(), dp, p.size());
  }
}
