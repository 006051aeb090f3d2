// ciede.comp's per-pixel arithmetic: vqm/cpu/ciede.hpp step by step (the same double and float
// operations in the same order, `precise`), glibc's functions replaced by ciede_math.glsl's and every
// rounding to float and every branch on a double checked (rnd, above). Constants are libvmaf's doubles,
// bit for bit.

#define PI k(0x400921fbu, 0x54442d18u)
#define TWO_PI k(0x401921fbu, 0x54442d18u)
const double E_XYZ = 2.2737367544323206e-13LF;  // 2^-42: |X, Y, Z − libvmaf's| bound (absolute)

double rgb_to_xyz_map(double c) {
  if (c > k(0x3fa41414u, 0x14141414u))  // 10/255: c is libvmaf's double exactly
    return d_pow((c + k(0x3fac28f5u, 0xc28f5c29u)) * k(0x3fee54edu, 0xcd0aeb60u), k(0x40033333u, 0x33333333u));
  precise double r = c * k(0x3fb3d072u, 0x2149b580u);
  return r;
}

// f(c) rounded to float; c within E_XYZ of libvmaf's, f's slope at most 7.8 on either branch.
float xyz_to_lab_map(double c) {
  const double eps = k(0x3f822354u, 0xd28f7cd6u);
  if (above(c, eps, E_XYZ)) {
    const double f = d_pow(c, k(0x3fd55555u, 0x55555555u));
    return rnd(f, 8.0LF * E_XYZ + RE * abs(f));
  }
  precise double f = (k(0x408c3a5eu, 0xd097b426u) * c + 16.0LF) * k(0x3f81a7b9u, 0x611a7b96u);
  return rnd(f, 8.0LF * E_XYZ + RE * abs(f));
}

struct lab {
  float l, a, b;
};

lab lab_color(uint ys, uint us, uint vs) {
  const double scale = double(1u << (pc.bpc - 8u));
  const double inv = ldexp(1.0LF, 8 - int(pc.bpc));
  precise double y = (double(ys) - 16.0LF * scale) * (k(0x3f72b404u, 0xad012b40u) * inv);
  precise double u = (double(us) - 128.0LF * scale) * (k(0x3f724924u, 0x92492492u) * inv);
  precise double v = (double(vs) - 128.0LF * scale) * (k(0x3f724924u, 0x92492492u) * inv);
  precise double r = y + k(0x3ff47c3bu, 0x4f616723u) * v;
  precise double g = y - k(0x3fcb7f38u, 0xc5436b90u) * u - k(0x3fd85b96u, 0x28cbd124u) * v;
  precise double b = y + k(0x4001061au, 0x60d4562eu) * u;
  r = rgb_to_xyz_map(r);
  g = rgb_to_xyz_map(g);
  b = rgb_to_xyz_map(b);
  precise double X = r * k(0x3fda65afu, 0xb13a8cccu) + g * k(0x3fd6e286u, 0xc5d400c0u) +
                     b * k(0x3fc71893u, 0x50cd0583u);
  precise double Y = r * k(0x3fcb38ddu, 0x2ec46132u) + g * k(0x3fe6e286u, 0xc5d400c0u) +
                     b * k(0x3fb27a0fu, 0x73d7379cu);
  precise double Z = r * k(0x3f93cc43u, 0xc4ebe999u) + g * k(0x3fbe835eu, 0x5d1aababu) +
                     b * k(0x3fee68e4u, 0x19523630u);
  const double fx = xyz_to_lab_map(X * k(0x3ff0d572u, 0x68615430u));
  const double fy = xyz_to_lab_map(Y);
  const double fz = xyz_to_lab_map(Z * k(0x3fed63acu, 0x153514f5u));
  // From here on libvmaf's operands are ours exactly: correctly rounded operations give its doubles.
  precise double L = 116.0LF * fy - 16.0LF;
  precise double A = 500.0LF * (fx - fy);
  precise double B = 200.0LF * (fy - fz);
  return lab(float(L), float(A), float(B));
}

double sq(float x) {
  precise double r = double(x) * double(x);
  return r;
}

float h_prime(float x, float y) {
  if (x == 0.0 && y == 0.0) return 0.0;
  const double a = d_atan2(x, y);
  float h = rnd(a, RE * abs(a));
  if (h < 0.0) {
    precise double w = double(h) + TWO_PI;
    h = float(w);
  }
  return h;
}

float delta_h_prime(float c1, float c2, float h1, float h2) {
  if (c1 == 0.0 || c2 == 0.0) return 0.0;
  precise float d = h2 - h1;
  if (double(abs(h1 - h2)) <= PI) return d;
  precise double w = h2 <= h1 ? double(d) + TWO_PI : double(d) - TWO_PI;
  return float(w);
}

float upcase_h_bar_prime(float h1, float h2) {
  precise float s = h1 + h2;
  precise float dd = h1 - h2;
  precise double w = abs(double(dd)) > PI ? (double(s) + TWO_PI) * 0.5LF : double(s) * 0.5LF;
  return float(w);
}

float upcase_t(float h) {
  const double hd = double(h);
  precise double t = 1.0LF - k(0x3fc5c28fu, 0x5c28f5c3u) * d_cos(hd - k(0x3fe0c152u, 0x382d7365u)) +
                     k(0x3fceb851u, 0xeb851eb8u) * d_cos(2.0LF * hd) +
                     k(0x3fd47ae1u, 0x47ae147bu) * d_cos(3.0LF * hd + k(0x3fbacee9u, 0xf37bebd5u)) -
                     k(0x3fc99999u, 0x9999999au) * d_cos(4.0LF * hd - k(0x3ff197c9u, 0x87c952c4u));
  return rnd(t, RE * (abs(t) + 1.0LF));
}

// The rest of ΔE from powf(C̄′, 7): R_T, then ΔE itself.
float de_tail(float c7, float rad, float lightness, float chroma, float hue) {
  precise float den = c7 + 6103515625.0;  // powf(25, 7): 25^7 rounded to float, as the literal here
  const double q = d_div(double(c7), double(den));
  const float ratio = rnd(q, RE * abs(q));
  const double root = d_sqrt(double(ratio));
  precise double rt_d = -2.0LF * root * d_sin(double(rad));
  const float rt = rnd(rt_d, RE * abs(rt_d));
  precise float rch = rt * chroma * hue;
  precise double sum = sq(lightness) + sq(chroma) + sq(hue) + double(rch);
  const double de_d = d_sqrt(sum);
  return rnd(de_d, RE * abs(de_d));
}

float delta_e(lab c1, lab c2) {
  precise float dl = c2.l - c1.l;
  precise float l_bar = (c1.l + c2.l) * 0.5;
  const double ch1d = d_sqrt(sq(c1.a) + sq(c1.b)), ch2d = d_sqrt(sq(c2.a) + sq(c2.b));
  const float ch1 = rnd(ch1d, RE * ch1d), ch2 = rnd(ch2d, RE * ch2d);
  precise float c_bar = (ch1 + ch2) * 0.5;
  const double cb = double(c_bar);
  precise double c7 = cb * cb * cb * cb * cb * cb * cb;  // glibc's pow(c̄, 7) within 1 ulp of c̄^7
  precise double g = 1.0LF - d_sqrt(d_div(c7, c7 + 6103515625.0LF));
  precise float ha1 = c1.a * 0.5, ha2 = c2.a * 0.5;
  precise double a1d = double(c1.a) + double(ha1) * g, a2d = double(c2.a) + double(ha2) * g;
  const float a1 = rnd(a1d, RE * abs(a1d)), a2 = rnd(a2d, RE * abs(a2d));
  const double cp1d = d_sqrt(sq(a1) + sq(c1.b)), cp2d = d_sqrt(sq(a2) + sq(c2.b));
  const float cp1 = rnd(cp1d, RE * cp1d), cp2 = rnd(cp2d, RE * cp2d);
  precise float cp_bar = (cp1 + cp2) * 0.5;
  precise float dc = cp2 - cp1;
  precise float lm = l_bar - 50.0;
  const double l50 = sq(lm);
  precise double s_ld = 1.0LF + d_div(k(0x3f8eb851u, 0xeb851eb8u) * l50, d_sqrt(20.0LF + l50));
  const float s_l = rnd(s_ld, RE * s_ld);
  precise double s_cd = 1.0LF + k(0x3fa70a3du, 0x70a3d70au) * double(cp_bar);
  const float s_c = float(s_cd);
  const float h1 = h_prime(c1.b, a1), h2 = h_prime(c2.b, a2);
  const float dh = delta_h_prime(ch1, ch2, h1, h2);
  precise float cpp = cp1 * cp2;
  precise double dhu = 2.0LF * d_sqrt(double(cpp)) * d_sin(double(dh) * 0.5LF);
  const float dh_upper = rnd(dhu, RE * abs(dhu));
  const float h_bar = upcase_h_bar_prime(h1, h2);
  const float t = upcase_t(h_bar);
  precise double s_hd = 1.0LF + k(0x3f8eb851u, 0xeb851eb8u) * double(cp_bar) * double(t);
  const float s_h = float(s_hd);
  // R_T's arguments, then powf(C̄′, 7).
  precise double degd = double(h_bar) * k(0x404ca5dcu, 0x1a63c1f8u);
  const float deg = float(degd);
  precise double dgd = (double(deg) - 275.0LF) * k(0x3fa47ae1u, 0x47ae147bu);
  const float dg = float(dgd);
  precise float dg2 = dg * dg;
  const double ex = d_exp(-double(dg2));
  precise double sixd = 60.0LF * ex;
  const float sixty = rnd(sixd, RE * sixd);
  precise double radd = double(sixty) * k(0x3f91df46u, 0xa2529d39u);
  const float rad = float(radd);
  // libvmaf's float divisions, in double (exact quotient of floats rounded twice = once) with our d_div.
  precise float den_l = 0.65 * s_l, den_h = 4.0 * s_h;
  const double ld = d_div(double(dl), double(den_l)), cd = d_div(double(dc), double(s_c)),
               hd = d_div(double(dh_upper), double(den_h));
  const float lightness = rnd(ld, RE * abs(ld)), chroma = rnd(cd, RE * abs(cd)), hue = rnd(hd, RE * abs(hd));
  // glibc's powf(C̄′, 7) is within 0.82 float ulp of C̄′^7 (its bound): the exact power is computed here
  // (7 products, within 2^-50); where that bound leaves two candidate floats, both are carried to ΔE.
  const double cpb = double(cp_bar);
  precise double p7 = cpb * cpb * cpb * cpb * cpb * cpb * cpb;
  const double glibc_err = abs(p7) * 2.0e-8LF;  // 1.27·2^-26 relative, with room
  const float lo = float(p7 - glibc_err), hi = float(p7 + glibc_err);
  const float de1 = de_tail(lo, rad, lightness, chroma, hue);
  if (lo == hi) return de1;
  // Two candidates at most (2·glibc_err is below a float ulp): ΔE must not depend on which.
  const float de2 = de_tail(hi, rad, lightness, chroma, hue);
  if (!(de1 == de2)) ok = false;
  return de1;
}
