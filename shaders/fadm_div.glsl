// float_adm's adm_rcp=exact division (docs/spec-float-features.md, "float_adm"): f32(n / x) correctly
// rounded from operations Vulkan rounds correctly (double multiply and subtract), whatever the accuracy
// of the device's division; fadm_div_test.comp exposes it to the tests with a perturbed candidate.

// |n| − q·|x| exactly: the product of two binary32 values is exact in binary64, and the difference is
// exact (Sterbenz) for q within a few ulps of |n|/|x|; only correctly rounded double ops.
double fadm_residual(double an, float q, double ax) {
  precise double p = double(q) * ax;
  precise double r = an - p;
  return r;
}

// f32(n / x) correctly rounded on any conforming driver, from a candidate q a few binary32 ulps off at
// most: the exact residuals of q and of its neighbours pick the nearest binary32 (a tie: the even one).
float div_exact_from(float n, float x, float q) {  // q: the candidate for |n| / |x|
  const double an = abs(double(n)), ax = abs(double(x));
  if (an == 0.0lf) q = 0.0;
  for (int it = 0; it < 8 && an != 0.0lf; ++it) {
    const double r = fadm_residual(an, q, ax);
    if (r == 0.0lf) break;
    const uint qb = floatBitsToUint(q);
    if (r < 0.0lf && qb == 0u) break;
    const float q2 = uintBitsToFloat(r > 0.0lf ? qb + 1u : qb - 1u);
    const double r2 = abs(fadm_residual(an, q2, ax));
    if (r2 < abs(r) || (r2 == abs(r) && (floatBitsToUint(q2) & 1u) == 0u)) q = q2;
    else break;
  }
  return uintBitsToFloat(floatBitsToUint(q) | ((floatBitsToUint(n) ^ floatBitsToUint(x)) & 0x80000000u));
}

// The candidate: the device's double division, at least as accurate as binary32's 2.5 ulp.
float div_exact(float n, float x) { return div_exact_from(n, x, float(abs(double(n)) / abs(double(x)))); }
