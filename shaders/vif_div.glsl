// A correctly rounded (IEEE round-to-nearest-even) double division for positive normal operands, built
// only from operations Vulkan rounds correctly (double multiply, add, subtract), so that it does not depend
// on the accuracy of the device's double division or on a fused fma. Integer VIF's g = s12 / (s1 + EPS)
// (SPEC-vmaf Part I §8); vif_div_test.comp exposes it to the tests.

// The residual n − q·d exactly (for q within a few ulps of n/d): Dekker's product q·d = p + e with
// Veltkamp splitting (only correctly rounded multiplies and subtractions), then n − p is exact (Sterbenz)
// and (n − p) − e is exact when the residual is representable, which it is for a faithful q.
double residual(double n, double q, double d) {
  const double split = 134217729.0lf;  // 2^27 + 1
  precise double p = q * d;
  precise double tq = split * q;
  precise double qh = tq - (tq - q);
  precise double ql = q - qh;
  precise double td = split * d;
  precise double dh = td - (td - d);
  precise double dl = d - dh;
  precise double e = ((qh * dh - p) + qh * dl + ql * dh) + ql * dl;
  precise double r = (n - p) - e;
  return r;
}
double step_ulp(double q, bool up) {  // q > 0: the next double above or below
  uvec2 b = unpackDouble2x32(q);
  if (up) {
    b.x += 1u;
    if (b.x == 0u) b.y += 1u;
  } else {
    if (b.x == 0u) b.y -= 1u;
    b.x -= 1u;
  }
  return packDouble2x32(b);
}
// n / d rounded to nearest even: start from the device's division (any accuracy within a few ulps); keep
// q when its residual is below half the gap to the neighbour toward n/d, else move to that neighbour while
// it has a smaller residual (equal residuals: a tie, the even one wins).
double div_rn(double n, double d) {
  double q = n / d;
  for (int it = 0; it < 4; ++it) {
    const double r = residual(n, q, d);
    if (r == 0.0) break;
    const double q2 = step_ulp(q, r > 0.0);
    // q is the nearest when |r| < (gap to q2)·d / 2: all exact (the gap is a power of two).
    precise double half_gap = abs(q2 - q) * d * 0.5;
    if (abs(r) < half_gap) break;
    const double r2 = abs(residual(n, q2, d));
    const bool even2 = (unpackDouble2x32(q2).x & 1u) == 0u;
    if (r2 < abs(r) || (r2 == abs(r) && even2)) q = q2;
    else break;
  }
  return q;
}
