// Backend: what every backend provides so metrics can run on it.
//
// A frame's work is recorded between begin_frame() and submit(); each kernel call names the partials
// struct it fills, and those are valid once wait() returns. A CPU backend may do the work at once; a GPU
// backend records it and runs all requested metrics of the frame in one submission.
#pragma once

#include <concepts>

#include "vqm/picture.hpp"

namespace vqm {

template <class B>
concept Backend = requires(B& b, const picture_view& ref, const picture_view& dis, typename B::frame& f) {
  typename B::frame;
  { b.begin_frame(ref, dis) } -> std::same_as<typename B::frame>;
  b.submit(f);
  b.wait(f);
};

}  // namespace vqm
