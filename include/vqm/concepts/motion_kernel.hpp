// MotionKernel: the integer motion SAD between the reference luma of this frame and of an earlier one
// (SPEC-vmaf A.3 steps 1-4). Temporal: the backend keeps the history in its motion_state.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>

#include "vqm/concepts/backend.hpp"
#include "vqm/picture.hpp"

namespace vqm {

struct motion_request {
  bool five_frame_window = false;  // compare with frame i-2 instead of i-1 (and start at frame 2)
};

// computed == false: a frame before the window (frame 0, or frames 0-1 with the five-frame window),
// whose score is 0.
struct motion_partials {
  std::uint64_t sad = 0;
  bool computed = false;
};

template <class B>
concept MotionKernel = Backend<B> && requires(B& b, typename B::frame& f, typename B::motion_state& s,
                                              const motion_request& q, motion_partials& out,
                                              const picture_format& fmt, std::size_t ring) {
  { b.make_motion_state(fmt, ring) } -> std::same_as<typename B::motion_state>;
  b.motion(f, s, q, out);
};

}  // namespace vqm
