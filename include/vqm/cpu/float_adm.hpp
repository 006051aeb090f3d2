// Cpu kernel of float_adm: libvmaf's scalar C path (adm.c, adm_tools.c) in its binary32 order, scale by
// scale on whole subbands: db2 DWT, decoupling (DIVS through the RCPSS table), CSF, contrast masking and
// the cube sums (docs/spec-float-features.md, "float_adm"). Every value is libvmaf's.
#pragma once

#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "vqm/cpu/normalize.hpp"
#include "vqm/metrics/float_adm.hpp"
#include "vqm/metrics/float_adm_parts.hpp"
#include "vqm/picture.hpp"

namespace vqm::cpu {

namespace fadm_detail {

using fadm::border;
using fadm::border_filt;
using fadm::hi;
using fadm::lo;
using fadm::mirror;
using fadm::one_by_15;
using fadm::one_by_30;
using fadm::pnorm;
using fadm::region;

// A w×h binary32 plane, rows packed.
struct plane {
  std::vector<float> v;
  int w = 0, h = 0;
  void resize(int width, int height) {
    w = width;
    h = height;
    v.resize(static_cast<std::size_t>(w) * h);
  }
  [[nodiscard]] float* row(int y) noexcept { return v.data() + static_cast<std::ptrdiff_t>(y) * w; }
  [[nodiscard]] const float* row(int y) const noexcept { return v.data() + static_cast<std::ptrdiff_t>(y) * w; }
  [[nodiscard]] float at(int y, int x) const noexcept { return v[static_cast<std::size_t>(y) * w + x]; }
};

// The DWT's four bands: 0 = a (lo·lo), 1 = h (hi vertical, lo horizontal), 2 = v, 3 = d.
struct bands {
  plane b[4];
};

// adm_dwt2_s (or adm_dwt2_lo_s: band a only): vertical pass of a row pair into lo/hi rows, then the
// horizontal pass; every sum from 0 in tap order.
inline void dwt(const plane& src, bands& out, bool lo_only, std::vector<float>& tmplo, std::vector<float>& tmphi) {
  const int w = src.w, h = src.h, sw = (w + 1) / 2, sh = (h + 1) / 2;
  for (int k = 0; k < (lo_only ? 1 : 4); ++k) out.b[k].resize(sw, sh);
  tmplo.resize(static_cast<std::size_t>(w));
  tmphi.resize(static_cast<std::size_t>(w));
  std::vector<int> ix(static_cast<std::size_t>(4 * sw));
  for (int j = 0; j < sw; ++j)
    for (int k = 0; k < 4; ++k) ix[static_cast<std::size_t>(4 * j + k)] = mirror(2 * j - 1 + k, w);
  for (int i = 0; i < sh; ++i) {
    const float* r0 = src.row(mirror(2 * i - 1, h));
    const float* r1 = src.row(mirror(2 * i, h));
    const float* r2 = src.row(mirror(2 * i + 1, h));
    const float* r3 = src.row(mirror(2 * i + 2, h));
    for (int j = 0; j < w; ++j) {
      const float s0 = r0[j], s1 = r1[j], s2 = r2[j], s3 = r3[j];
      float a = 0;
      a += lo[0] * s0;
      a += lo[1] * s1;
      a += lo[2] * s2;
      a += lo[3] * s3;
      tmplo[static_cast<std::size_t>(j)] = a;
      if (lo_only) continue;
      a = 0;
      a += hi[0] * s0;
      a += hi[1] * s1;
      a += hi[2] * s2;
      a += hi[3] * s3;
      tmphi[static_cast<std::size_t>(j)] = a;
    }
    const auto filt = [&](const float* f, const std::vector<float>& t, const int* jj) {
      float a = 0;
      a += f[0] * t[static_cast<std::size_t>(jj[0])];
      a += f[1] * t[static_cast<std::size_t>(jj[1])];
      a += f[2] * t[static_cast<std::size_t>(jj[2])];
      a += f[3] * t[static_cast<std::size_t>(jj[3])];
      return a;
    };
    for (int j = 0; j < sw; ++j) {
      const int* jj = ix.data() + 4 * j;
      out.b[0].row(i)[j] = filt(lo, tmplo, jj);
      if (lo_only) continue;
      out.b[2].row(i)[j] = filt(hi, tmplo, jj);
      out.b[1].row(i)[j] = filt(lo, tmphi, jj);
      out.b[3].row(i)[j] = filt(hi, tmphi, jj);
    }
  }
}

// Three planes h, v, d.
struct hvd {
  plane p[3];
  void resize(int w, int h) {
    for (auto& q : p) q.resize(w, h);
  }
};

// adm_decouple_s over the filter region: the restored part r and the additive part a of the distorted
// bands; k = DIVS(t, o + 1e−30), the angle test without atan, the gain limit in double.
inline void decouple(const bands& ref, const bands& dis, hvd& r, hvd& a, double egl, const fadm::rcp_table* t) {
  const int w = ref.b[1].w, h = ref.b[1].h;
  r.resize(w, h);
  a.resize(w, h);
  const auto cos1_sq = static_cast<float>(std::cos(1.0 * 3.14159265358979323846 / 180.0) *
                                          std::cos(1.0 * 3.14159265358979323846 / 180.0));
  const float eps = 1e-30f;
  const region g = border_filt(w, h);
  for (int i = g.top; i < g.bottom; ++i)
    for (int j = g.left; j < g.right; ++j) {
      float o[3], d[3], rst[3];
      for (int k = 0; k < 3; ++k) {
        o[k] = ref.b[k + 1].at(i, j);
        d[k] = dis.b[k + 1].at(i, j);
      }
      for (int k = 0; k < 3; ++k) {
        float kk = fadm::divs(t, d[k], o[k] + eps);
        kk = kk < 0.0f ? 0.0f : (kk > 1.0f ? 1.0f : kk);
        rst[k] = kk * o[k];
      }
      const float ot_dp = o[0] * d[0] + o[1] * d[1];
      const float o_mag_sq = o[0] * o[0] + o[1] * o[1];
      const float t_mag_sq = d[0] * d[0] + d[1] * d[1];
      const bool angle = (ot_dp >= 0.0f) && (ot_dp * ot_dp >= cos1_sq * o_mag_sq * t_mag_sq);
      for (int k = 0; k < 3; ++k) {
        if (angle && rst[k] > 0.0f) {
          const double g2 = static_cast<double>(rst[k]) * egl;
          rst[k] = static_cast<float>(g2 < static_cast<double>(d[k]) ? g2 : static_cast<double>(d[k]));
        }
        if (angle && rst[k] < 0.0f) {
          const double g2 = static_cast<double>(rst[k]) * egl;
          rst[k] = static_cast<float>(g2 > static_cast<double>(d[k]) ? g2 : static_cast<double>(d[k]));
        }
        r.p[k].row(i)[j] = rst[k];
        a.p[k].row(i)[j] = d[k] - rst[k];
      }
    }
}

// adm_csf_s over the filter region: val = factor · x, flt = f32(FLOAT_ONE_BY_30 · |val|) (double product).
inline void csf(const hvd& src, const float* factor, hvd& val, hvd& flt) {
  const int w = src.p[0].w, h = src.p[0].h;
  val.resize(w, h);
  flt.resize(w, h);
  const region g = border_filt(w, h);
  for (int k = 0; k < 3; ++k)
    for (int i = g.top; i < g.bottom; ++i)
      for (int j = g.left; j < g.right; ++j) {
        const float v = factor[k] * src.p[k].at(i, j);
        val.p[k].row(i)[j] = v;
        flt.p[k].row(i)[j] = static_cast<float>(one_by_30 * static_cast<double>(std::fabs(v)));
      }
}

// adm_cm_s: per pixel the masking threshold of the masker (its 3×3 flt neighbours and 1/15 of its own
// |val|, per band, mirrored at the edges), then Σ max(|factor·x| − thr, 0)³ per band, rows summed first.
[[nodiscard]] inline float cm(const hvd& src, const hvd& mval, const hvd& mflt, const float* factor, double nw,
                              bool bypass, const pnorm& pn) {
  const int w = src.p[0].w, h = src.p[0].h;
  const region g = border(w, h);
  float acc[3] = {0, 0, 0};
  for (int i = g.top; i < g.bottom; ++i) {
    float inner[3] = {0, 0, 0};
    const int rows[3] = {mirror(i - 1, h), i, mirror(i + 1, h)};
    for (int j = g.left; j < g.right; ++j) {
      float thr = 0.0f;
      if (!bypass) {
        const int cols[3] = {mirror(j - 1, w), j, mirror(j + 1, w)};
        for (int k = 0; k < 3; ++k) {
          float sum = 0;
          for (int y = 0; y < 3; ++y)
            for (int x = 0; x < 3; ++x) {
              if (y == 1 && x == 1)
                sum = static_cast<float>(static_cast<double>(sum) +
                                         one_by_15 * static_cast<double>(std::fabs(mval.p[k].at(i, j))));
              else
                sum += mflt.p[k].at(rows[y], cols[x]);
            }
          thr += sum;
        }
      }
      for (int k = 0; k < 3; ++k) {
        float x = std::fabs(src.p[k].at(i, j) * factor[k]) - thr;
        x = x < 0.0f ? 0.0f : x;
        inner[k] += pn.power(x);
      }
    }
    for (int k = 0; k < 3; ++k) acc[k] += inner[k];
  }
  return fadm::scale_total(acc, g, nw, pn);
}

// adm_csf_den_scale_s: Σ |factor·o|³ of the reference bands over the border region.
[[nodiscard]] inline float den(const bands& ref, const float* factor, double nw, const pnorm& pn) {
  const int w = ref.b[1].w, h = ref.b[1].h;
  const region g = border(w, h);
  float acc[3] = {0, 0, 0};
  for (int i = g.top; i < g.bottom; ++i) {
    float inner[3] = {0, 0, 0};
    for (int j = g.left; j < g.right; ++j)
      for (int k = 0; k < 3; ++k) {
        inner[k] += pn.power(std::fabs(factor[k] * ref.b[k + 1].at(i, j)));
      }
    for (int k = 0; k < 3; ++k) acc[k] += inner[k];
  }
  return fadm::scale_total(acc, g, nw, pn);
}

struct workspace {
  plane pic[2];
  bands ref, dis;
  plane next[2];
  hvd r, a, val, flt;
  std::vector<float> tmplo, tmphi;
};

}  // namespace fadm_detail

// The four scales' binary32 num, den and AIM num of libvmaf's compute_adm.
[[nodiscard]] inline float_adm_partials float_adm(const plane_view& ref, const plane_view& dis, std::uint32_t bit_depth,
                                                  const float_adm_request& q) {
  using namespace fadm_detail;
  thread_local workspace ws;
  for (int p = 0; p < 2; ++p) {
    const plane_view& v = p ? dis : ref;
    ws.pic[p].resize(static_cast<int>(v.width), static_cast<int>(v.height));
    normalize_plane(v, bit_depth, ws.pic[p].v.data());
    for (auto& x : ws.pic[p].v) x += -128.0f;
  }
  float_adm_partials out;
  for (int s = 0; s < 4; ++s) {
    const bool lo_only = s == 0 && q.skip_scale0;
    dwt(ws.pic[0], ws.ref, lo_only, ws.tmplo, ws.tmphi);
    dwt(ws.pic[1], ws.dis, lo_only, ws.tmplo, ws.tmphi);
    if (lo_only) {
      out.den[0] = 1e-10f;
    } else {
      const float* f = q.factor[s];
      decouple(ws.ref, ws.dis, ws.r, ws.a, q.enhn_gain_limit, q.rcp);
      const pnorm pn{q.p_norm};
      out.den[s] = den(ws.ref, f, q.noise_weight, pn);
      csf(ws.a, f, ws.val, ws.flt);
      out.num[s] = cm(ws.r, ws.val, ws.flt, f, q.noise_weight, q.bypass_cm, pn);
      csf(ws.r, f, ws.val, ws.flt);
      out.aim[s] = cm(ws.a, ws.val, ws.flt, f, 0.0, q.bypass_cm, pn);
    }
    std::swap(ws.pic[0].v, ws.ref.b[0].v);
    std::swap(ws.pic[1].v, ws.dis.b[0].v);
    ws.pic[0].w = ws.pic[1].w = ws.ref.b[0].w;
    ws.pic[0].h = ws.pic[1].h = ws.ref.b[0].h;
  }
  return out;
}

}  // namespace vqm::cpu
