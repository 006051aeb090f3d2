// unpack_stage: semi-planar chroma (NV12, P010, ...) and MSB-aligned samples (P010, P012) to the planar,
// LSB-aligned planes the programs read. The frame is uploaded as it is (frame_layout: the interleaved
// chroma rows into their own region, MSB-aligned luma into its planar place); one dispatch of
// shaders/unpack.comp, recorded after the upload barrier and before the metrics' first stage in the
// frame's one submission, writes the planar planes. Built once per frame format: a pipeline, a
// descriptor set per slot (on the slot's first frame); nothing per frame.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "vqm/vulkan/context.hpp"
#include "vqm/vulkan/detail/layout.hpp"
#include "vqm/vulkan/pipeline.hpp"
#include "vqm/vulkan/spirv/unpack.hpp"

namespace vqm::vulkan::detail {

class unpack_stage {
 public:
  unpack_stage(context& ctx, const frame_layout& l, std::size_t slots)
      : ctx_(ctx), l_(l), pool_(ctx, static_cast<std::uint32_t>(slots), static_cast<std::uint32_t>(slots)),
        sets_(slots, VK_NULL_HANDLE), pipeline_(ctx, spirv::unpack, 1, sizeof(push)) {}

  // Slot s's descriptor set, on its first frame (its input buffer exists by then).
  void ensure(std::size_t s, VkBuffer input) {
    if (sets_[s]) return;
    sets_[s] = pool_.allocate(pipeline_.set_layout());
    write_storage_buffers(ctx_, sets_[s], {VkDescriptorBufferInfo{input, 0, VK_WHOLE_SIZE}});
  }

  // Records the dispatch for a frame that uploaded `planes` planes; false when it has nothing to do.
  bool record(VkCommandBuffer cb, std::size_t s, int planes) const {
    push pc{};
    bool any = false;
    for (int pic = 0; pic < 2; ++pic) {
      const picture_format& f = l_.source[pic];
      if (f.is_planar()) continue;  // its planes are in place already
      pc.flags[pic] = (f.msb_shift << 8) | (f.semi_planar() ? 1u : 0u) | (f.layout == chroma_layout::vu ? 2u : 0u);
      any = any || f.msb_shift != 0 || planes > 1;
      pc.luma[pic] = l_.word(pic, 0);
      if (l_.planes == 3) {
        pc.src[pic] = static_cast<std::uint32_t>(l_.packed[pic] / 4);
        pc.cb[pic] = l_.word(pic, 1);
        pc.cr[pic] = l_.word(pic, 2);
      }
    }
    if (!any) return false;
    pc.luma_stride = pc.luma_words = l_.stride_words(0);
    pc.luma_rows = l_.height[0];
    pc.src_stride = l_.packed_stride / 4;
    pc.chroma_stride = pc.chroma_words = l_.planes == 3 ? l_.stride_words(1) : 0;
    pc.chroma_rows = planes > 1 ? l_.height[1] : 0;  // luma only: the chroma was not uploaded
    pc.wide = l_.bps == 2 ? 1 : 0;
    const std::uint32_t words = std::max(pc.luma_words, pc.chroma_words);
    pipeline_.bind(cb, sets_[s]);
    pipeline_.push(cb, pc);
    pipeline_.dispatch(cb, (words + 63) / 64, l_.height[0], 4);
    return true;
  }

 private:
  struct push {
    std::uint32_t luma[2], src[2], cb[2], cr[2], flags[2];
    std::uint32_t luma_stride, luma_words, luma_rows, src_stride, chroma_stride, chroma_words, chroma_rows, wide;
  };
  static_assert(sizeof(push) == 72);

  context& ctx_;
  frame_layout l_;
  descriptor_pool pool_;
  std::vector<VkDescriptorSet> sets_;
  compute_pipeline pipeline_;
};

}  // namespace vqm::vulkan::detail
