// Cpu engines whose requests may differ only in a gain limit (adm, vif: vmaf_v0.6.1 and vmaf_v0.6.1neg in
// one run): one recorded pass serves two of them, the kernel computing what does not depend on the limit
// once.
#pragma once

#include "vqm/cpu/frame.hpp"
#include "vqm/picture.hpp"

namespace vqm::cpu {

// One pass: q, and with `two` also q at gain limit b into *out2.
template <class Req, class Out>
struct limit_pass {
  Req q;
  bool two = false;
  double b = 0.0;
  Out* out2 = nullptr;
};

// Kernel(ref luma, dis luma, bit depth, q, two, b, out, out2): the kernel's entry point (cpu::vif_limits).
template <auto Kernel, class Req, class Out>
void run_limit_pass(const picture_view& r, const picture_view& d, const limit_pass<Req, Out>& p, Out& out) {
  Out unused;
  Kernel(r.planes[0], d.planes[0], r.format.bit_depth, p.q, p.two, p.b, out, p.two ? *p.out2 : unused);
}

// Records q (gain limit `limit`) into f: into a pass recorded earlier whose request equals q but for its
// limit (same(q, other)) when one has room, else as a pass of its own. Run: the engine's recorded function.
template <auto Run, class Req, class Out, class Same>
void record_limit_pass(frame& f, const Req& q, double limit, Out& out, Same same) {
  using pass = limit_pass<Req, Out>;
  const bool joined = f.join<Run, pass, Out>([&](pass& p) {
    if (p.two || !same(q, p.q)) return false;
    p.two = true;
    p.b = limit;
    p.out2 = &out;
    return true;
  });
  if (joined) return;
  pass p;
  p.q = q;
  f.record<Run>(p, out);
}

}  // namespace vqm::cpu
