// Double-precision functions for ciede.comp (GLSL has none): division, sqrt, exp, log, pow, sin, cos and
// atan2 from correctly rounded +, −, × only (Newton steps from a float seed; range reduction and Taylor
// series), each within about 2^-48 relative (atan2, cos: absolute, of π) of the exact function — far
// inside the tolerances ciede.comp certifies with (docs/spec-float-features.md, "ciede on Vulkan").
// Out of their range (non-positive or huge arguments) they return NaN, which fails every check.

double k(uint hi, uint lo) { return packDouble2x32(uvec2(lo, hi)); }
double nan_d() { return k(0x7ff80000u, 0u); }

// Newton's 1/b from float's 1/b (2.5 ulp of float): two steps leave the rounding of the last one.
double d_recip(double b) {
  const float s = 1.0 / float(b);
  if (isinf(s) || isnan(s) || s == 0.0) return nan_d();
  precise double r = double(s);
  r = r + r * (1.0LF - b * r);
  r = r + r * (1.0LF - b * r);
  return r;
}
double d_div(double a, double b) {
  precise double r = d_recip(b);
  precise double q = a * r;
  q = q + r * (a - b * q);
  return q;
}

double d_sqrt(double x) {
  if (x == 0.0LF) return 0.0LF;
  const float xf = float(x);
  if (!(x > 0.0LF) || isinf(xf) || xf == 0.0) return nan_d();
  precise double y = double(inversesqrt(xf));
  y = y * (1.5LF - 0.5LF * x * y * y);
  y = y * (1.5LF - 0.5LF * x * y * y);
  precise double s = x * y;
  s = s + 0.5LF * y * (x - s * s);
  return s;
}

// e^t, |t| < 700: t = j·ln2 + r (Cody–Waite, j·LN2_HI exact), |r| ≤ ln2/2, Taylor to r^14.
double d_exp(double t) {
  if (!(abs(t) < 700.0LF)) return nan_d();
  const double LN2_HI = k(0x3fe62e42u, 0xfee00000u), LN2_LO = k(0x3dea39efu, 0x35793c76u);
  const double j = floor(t * k(0x3ff71547u, 0x652b82feu) + 0.5LF);
  precise double r = (t - j * LN2_HI) - j * LN2_LO;
  const double c[15] = double[15](1.1470745597729725e-11LF, 1.6059043836821613e-10LF, 2.08767569878681e-09LF,
      2.505210838544172e-08LF, 2.755731922398589e-07LF, 2.7557319223985893e-06LF, 2.48015873015873e-05LF,
      0.0001984126984126984LF, 0.001388888888888889LF, 0.008333333333333333LF, 0.041666666666666664LF,
      0.16666666666666666LF, 0.5LF, 1.0LF, 1.0LF);
  precise double p = c[0];
  for (int i = 1; i < 15; ++i) p = p * r + c[i];
  return ldexp(p, int(j));
}

// ln x, x > 0 normal: x = m·2^e, m in [√½, √2), ln m = 2·atanh(s), s = (m−1)/(m+1), |s| ≤ 0.172.
double d_log(double x) {
  if (!(x > 0.0LF) || isinf(x)) return nan_d();
  int e;
  double m = frexp(x, e);
  if (m < k(0x3fe6a09eu, 0x667f3bcdu)) {
    m *= 2.0LF;
    e -= 1;
  }
  precise double s = d_div(m - 1.0LF, m + 1.0LF);
  precise double s2 = s * s;
  const double c[13] = double[13](
      1.0LF, 0.3333333333333333LF, 0.2LF, 0.14285714285714285LF, 0.1111111111111111LF, 0.09090909090909091LF,
      0.07692307692307693LF, 0.06666666666666667LF, 0.058823529411764705LF, 0.05263157894736842LF,
      0.047619047619047616LF, 0.043478260869565216LF, 0.04LF);
  precise double p = c[12];
  for (int n = 11; n >= 0; --n) p = p * s2 + c[n];
  precise double ln_m = 2.0LF * s * p;
  precise double de = double(e);
  return de * k(0x3fe62e42u, 0xfee00000u) + (de * k(0x3dea39efu, 0x35793c76u) + ln_m);
}

// x^y for x > 0 as e^(y·ln x); |y·ln x| stays below 8 in ciede.
double d_pow(double x, double y) { return d_exp(y * d_log(x)); }

// x = j·π/2 + r, |r| ≤ π/4 (+ rounding); |x| < 2^19 (ciede's are below 30).
double reduce_half_pi(double x, out int q) {
  const double j = floor(x * k(0x3fe45f30u, 0x6dc9c883u) + 0.5LF);
  q = int(j) & 3;
  precise double r = (x - j * k(0x3ff921fbu, 0x54400000u)) - j * k(0x3dd0b461u, 0x1a626331u);
  return r;
}
// Σ c[i]·r2^(9−i), Horner from the highest power.
double horner10(double c[10], double r2) {
  precise double p = c[0];
  for (int i = 1; i < 10; ++i) p = p * r2 + c[i];
  return p;
}
// Taylor to r^19 and r^18: remainders below 2^-60 for |r| ≤ π/4 + rounding.
double sin_poly(double r) {
  const double c[10] = double[10](-8.22063524662433e-18LF, 2.8114572543455206e-15LF, -7.647163731819816e-13LF,
      1.6059043836821613e-10LF, -2.505210838544172e-08LF, 2.7557319223985893e-06LF, -0.0001984126984126984LF,
      0.008333333333333333LF, -0.16666666666666666LF, 1.0LF);
  precise double s = r * horner10(c, r * r);
  return s;
}
double cos_poly(double r) {
  const double c[10] = double[10](-1.5619206968586225e-16LF, 4.779477332387385e-14LF, -1.1470745597729725e-11LF,
      2.08767569878681e-09LF, -2.755731922398589e-07LF, 2.48015873015873e-05LF, -0.001388888888888889LF,
      0.041666666666666664LF, -0.5LF, 1.0LF);
  return horner10(c, r * r);
}
double d_sin(double x) {
  if (!(abs(x) < 524288.0LF)) return nan_d();
  int q;
  const double r = reduce_half_pi(x, q);
  return q == 0 ? sin_poly(r) : q == 1 ? cos_poly(r) : q == 2 ? -sin_poly(r) : -cos_poly(r);
}
double d_cos(double x) {
  if (!(abs(x) < 524288.0LF)) return nan_d();
  int q;
  const double r = reduce_half_pi(x, q);
  return q == 0 ? cos_poly(r) : q == 1 ? -sin_poly(r) : q == 2 ? -cos_poly(r) : sin_poly(r);
}

// atan a for a in [0, 1]: above tan(π/8), π/4 + atan((a−1)/(a+1)); then the series to u^47 (|u| ≤ 0.415).
double d_atan01(double a) {
  precise double u = a;
  precise double base = 0.0LF;
  if (a > k(0x3fda8279u, 0x99fcef32u)) {
    u = d_div(a - 1.0LF, a + 1.0LF);
    base = k(0x3fe921fbu, 0x54442d18u);
  }
  precise double u2 = u * u;
  const double c[24] = double[24](
      1.0LF, 0.3333333333333333LF, 0.2LF, 0.14285714285714285LF, 0.1111111111111111LF, 0.09090909090909091LF,
      0.07692307692307693LF, 0.06666666666666667LF, 0.058823529411764705LF, 0.05263157894736842LF,
      0.047619047619047616LF, 0.043478260869565216LF, 0.04LF, 0.037037037037037035LF, 0.034482758620689655LF,
      0.03225806451612903LF, 0.030303030303030304LF, 0.02857142857142857LF, 0.02702702702702703LF,
      0.02564102564102564LF, 0.024390243902439025LF, 0.023255813953488372LF, 0.022222222222222223LF,
      0.02127659574468085LF);
  precise double p = c[23];
  for (int n = 22; n >= 0; --n) p = -p * u2 + c[n];
  precise double t = base + u * p;
  return t;
}

// atan2(y, x) as C's, for finite floats (y's sign read from its bits: −0 gives −0 or −π).
double d_atan2(float y, float x) {
  const bool neg = (floatBitsToUint(y) >> 31) != 0u;
  const bool xneg = (floatBitsToUint(x) >> 31) != 0u;
  const double PI = k(0x400921fbu, 0x54442d18u);
  precise double t;
  if (y == 0.0) {
    t = xneg ? PI : 0.0LF;
  } else if (x == 0.0) {
    t = k(0x3ff921fbu, 0x54442d18u);
  } else {
    const double ay = abs(double(y)), ax = abs(double(x));
    const bool swap = ay > ax;
    t = d_atan01(swap ? d_div(ax, ay) : d_div(ay, ax));
    if (swap) t = k(0x3ff921fbu, 0x54442d18u) - t;
    if (xneg) t = PI - t;
  }
  return neg ? -t : t;
}
