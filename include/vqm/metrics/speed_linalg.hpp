// SpEED's 25x25 linear algebra in binary32, as libvmaf's speed.c does it (SPEC-vmaf-v1 §B.9, §B.10): the
// eigenvalues of the covariance matrix (Householder tridiagonalisation + implicit symmetric QR, GSL's
// algorithm with libvmaf's float/double promotions) and the solve K X = Y by libvmaf's own Householder QR.
// Every operation is rounded where libvmaf rounds it; the library is built with -ffp-contract=off. Host math
// shared by every backend (the Cpu kernel and the Vulkan engine's decode both call it).
#pragma once

#include <array>
#include <cmath>
#include <cstddef>

namespace vqm::speed {

inline constexpr int E = 25;      // elements of a 5x5 block
inline constexpr double eps = 1e-6;  // libvmaf's EIGENVALUE_EPS, compared in double
using matrix = std::array<float, E * E>;

[[nodiscard]] inline int sign_of(float x) noexcept { return x >= 0 ? 1 : -1; }
// (float)sqrt((double)x): equal to sqrtf.
[[nodiscard]] inline float fsqrt(float x) noexcept { return static_cast<float>(std::sqrt(static_cast<double>(x))); }
[[nodiscard]] inline float hypot_f(float x, float y) noexcept { return fsqrt(x * x + y * y); }

// The Householder vector annihilating A[start+1.., col], stored in place; returns tau.
inline float householder(matrix& a, int col, int start) noexcept {
  if (E - start == 1) return 0.0f;
  float norm = 0;
  for (int i = start + 1; i < E; ++i) norm += a[i * E + col] * a[i * E + col];
  const float xnorm = fsqrt(norm);
  if (xnorm == 0.0f) return 0.0f;
  const float alpha = a[start * E + col];
  const float beta = static_cast<float>(-sign_of(alpha)) * hypot_f(alpha, xnorm);
  const float tau = (beta - alpha) / beta;
  const float s = alpha - beta;
  if (s != 0.0f) {
    for (int i = start; i < E; ++i) a[i * E + col] /= s;
    a[start * E + col] = beta;
  }
  return tau;
}

// gsl_linalg_symmtd_decomp as libvmaf adapts it: the diagonal d and subdiagonal sd of A (A is destroyed).
inline void tridiagonalise(matrix& a, float* d, float* sd) noexcept {
  float v[E]{}, x[E]{};
  for (int i = 0; i < E - 2; ++i) {
    const float tau = householder(a, i, i + 1);
    for (int j = i + 1; j < E; ++j) v[j] = a[j * E + i];
    if (tau != 0.0f) {
      a[(i + 1) * E + i] = v[i + 1];
      v[i + 1] = 1.0f;
      const int s = i + 1;
      for (int r = s; r < E; ++r) {
        x[r] = 0.0f;
        for (int j = s; j < E; ++j) x[r] += tau * a[r * E + j] * v[j];
      }
      float xv = 0;
      for (int r = s; r < E; ++r) xv += x[r] * v[r];
      const auto alpha = static_cast<float>(-0.5 * static_cast<double>(tau) * static_cast<double>(xv));
      for (int r = s; r < E; ++r) x[r] += alpha * v[r];
      for (int r = s; r < E; ++r)
        for (int c = s; c < E; ++c) a[r * E + c] -= x[r] * v[c] + v[r] * x[c];
    }
  }
  for (int i = 0; i < E; ++i) d[i] = a[i * E + i];
  for (int i = 0; i < E - 1; ++i) sd[i] = a[(i + 1) * E + i];
}

inline void chop(float* d, float* sd, int n) noexcept {
  for (int i = 0; i < n - 1; ++i)
    if (static_cast<double>(std::fabs(sd[i])) < eps * static_cast<double>(std::fabs(d[i]) + std::fabs(d[i + 1])))
      sd[i] = 0.0f;
}

[[nodiscard]] inline float trailing_eigenvalue(const float* d, const float* sd, int n) noexcept {
  const float ta = d[n - 2], tb = d[n - 1], tab = sd[n - 2];
  const auto dt = static_cast<float>(static_cast<double>(ta - tb) / 2.0);
  if (dt > 0) return tb - tab * (tab / (dt + hypot_f(dt, tab)));
  if (dt == 0) return tb - std::fabs(tab);
  return tb + tab * (tab / (-dt + hypot_f(dt, tab)));
}

inline void givens(float a, float b, float& c, float& s) noexcept {
  if (b == 0) {
    c = 1;
    s = 0;
  } else if (std::fabs(b) > std::fabs(a)) {
    const float t = -a / b;
    const auto s1 = static_cast<float>(1.0 / std::sqrt(static_cast<double>(1 + t * t)));
    s = s1;
    c = s1 * t;
  } else {
    const float t = -b / a;
    const auto c1 = static_cast<float>(1.0 / std::sqrt(static_cast<double>(1 + t * t)));
    c = c1;
    s = c1 * t;
  }
}

inline void qr_step(float* d, float* sd, int n) noexcept {
  float mu = trailing_eigenvalue(d, sd, n);
  if (eps * static_cast<double>(std::fabs(mu)) > static_cast<double>(std::fabs(d[0]) + std::fabs(sd[0]))) mu = 0;
  float x = d[0] - mu, z = sd[0];
  float bk = 0, zk = 0;
  float ap = d[0], bp = sd[0], aq = d[1];
  float c, s;
  if (n == 2) {
    givens(x, z, c, s);
    const float ap1 = c * (c * ap - s * bp) + s * (s * aq - c * bp);
    const float bp1 = c * (s * ap + c * bp) - s * (s * bp + c * aq);
    const float aq1 = s * (s * ap + c * bp) + c * (s * bp + c * aq);
    d[0] = ap1;
    sd[0] = bp1;
    d[1] = aq1;
    return;
  }
  float bq = sd[1];
  for (int k = 0; k < n - 1; ++k) {
    givens(x, z, c, s);
    const float bk1 = c * bk - s * zk;
    const float ap1 = c * (c * ap - s * bp) + s * (s * aq - c * bp);
    const float bp1 = c * (s * ap + c * bp) - s * (s * bp + c * aq);
    const float zp1 = -s * bq;
    const float aq1 = s * (s * ap + c * bp) + c * (s * bp + c * aq);
    const float bq1 = c * bq;
    const float ak = ap1;
    bk = bp1;
    zk = zp1;
    ap = aq1;
    bp = bq1;
    if (k < n - 2) aq = d[k + 2];
    if (k < n - 3) bq = sd[k + 2];
    d[k] = ak;
    if (k > 0) sd[k - 1] = bk1;
    if (k < n - 2) sd[k + 1] = bp;
    x = bk;
    z = zk;
  }
  d[n - 1] = ap;
  sd[n - 2] = bk;
}

// The eigenvalues of the symmetric k (unsorted, in libvmaf's order).
inline void eigenvalues(const matrix& k, float* out) noexcept {
  matrix a = k;
  float d[E], sd[E]{};
  tridiagonalise(a, d, sd);
  chop(d, sd, E);
  int b = E - 1, iter = 0;
  while (b > 0 && iter < 500) {
    if (sd[b - 1] == 0.0f) {
      --b;
      continue;
    }
    int lo = b - 1;
    while (lo > 0 && sd[lo - 1] != 0.0f) --lo;
    const int n = b - lo + 1;
    qr_step(d + lo, sd + lo, n);
    chop(d + lo, sd + lo, n);
    ++iter;
  }
  for (int i = 0; i < E; ++i) out[i] = d[i];
}

// dst = x · y for 25x25 matrices: each entry summed over k ascending, from 0, in float.
inline void multiply(matrix& dst, const matrix& x, const matrix& y) noexcept {
  dst.fill(0.0f);
  for (int i = 0; i < E; ++i)
    for (int k = 0; k < E; ++k) {
      const float xi = x[i * E + k];
      for (int j = 0; j < E; ++j) dst[i * E + j] += xi * y[k * E + j];
    }
}

[[nodiscard]] inline float norm(const float* v) noexcept {
  float s = 0;
  for (int i = 0; i < E; ++i) s += v[i] * v[i];
  return fsqrt(s);
}

// Solves K X = Y (Y and X: 25 rows of `cols`, row-major) by libvmaf's QR: Q = H_23 ⋯ H_0 from reflectors
// of the successively reduced matrix (each sign from K's own diagonal), R = Q·K, then back substitution
// on Q·Y. qy is scratch of 25·cols. False where a pivot of R is below 1e-6 (libvmaf's singular case).
inline bool solve(const matrix& k, const float* y, float* x, float* qy, std::size_t cols) noexcept {
  matrix z = k, q{}, h, t;
  for (int i = 0; i < E; ++i) q[i * E + i] = 1.0f;
  float v[E];
  for (int c = 0; c < E - 1; ++c) {
    for (int i = 0; i < E; ++i)
      for (int j = 0; j < E; ++j)
        if (i < c || j < c) z[i * E + j] = i == j ? 1.0f : 0.0f;
    for (int i = 0; i < E; ++i) v[i] = z[i * E + c];
    const float n1 = norm(v);
    v[c] += static_cast<float>(sign_of(k[c * E + c])) * n1;
    const float n2 = norm(v);
    for (int i = 0; i < E; ++i) v[i] /= n2;
    for (int i = 0; i < E; ++i)
      for (int j = 0; j < E; ++j) h[i * E + j] = -2 * v[i] * v[j];
    for (int i = 0; i < E; ++i) h[i * E + i] += 1;
    multiply(t, h, z);
    z = t;
    multiply(t, h, q);
    q = t;
  }
  matrix r;
  multiply(r, q, k);
  for (std::size_t i = 0; i < E * cols; ++i) qy[i] = 0.0f;
  for (int i = 0; i < E; ++i)
    for (int m = 0; m < E; ++m) {
      const float qim = q[i * E + m];
      const float* yr = y + m * cols;
      float* o = qy + i * cols;
      for (std::size_t j = 0; j < cols; ++j) o[j] += qim * yr[j];
    }
  for (int i = E - 1; i >= 0; --i) {
    const float den = r[i * E + i];
    if (static_cast<double>(std::fabs(den)) < eps) return false;
    for (std::size_t j = 0; j < cols; ++j) {
      float acc = qy[i * cols + j];
      for (int m = i + 1; m < E; ++m) acc -= x[m * cols + j] * r[i * E + m];
      x[i * cols + j] = acc / den;
    }
  }
  return true;
}

}  // namespace vqm::speed
