// psnr_hvs_kernel: PSNR-HVS's per-plane binary32 accumulator `ret` on Vulkan, bit-identical to libvmaf's
// serial loop (SPEC §6.5–6.7). Five dispatches: per-block terms (hvs_terms, reading the planes in place), a
// scan of block sums for binade estimates (hvs_scan), run tables (hvs_tables), the ordered walk (hvs_walk)
// in two halves, so that other metrics' heavy stages can run beside each.
// docs/psnr_hvs_gpu.md.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "vqm/error.hpp"
#include "vqm/metrics/psnr_hvs.hpp"
#include "vqm/picture.hpp"
#include "vqm/tables/psnr_hvs.hpp"
#include "vqm/vulkan/buffer.hpp"
#include "vqm/vulkan/command.hpp"
#include "vqm/vulkan/context.hpp"
#include "vqm/vulkan/pipeline.hpp"
#include "vqm/vulkan/plane_binding.hpp"
#include "vqm/vulkan/serial_sum.hpp"
#include "vqm/vulkan/spirv/hvs_scan.hpp"
#include "vqm/vulkan/spirv/hvs_tables.hpp"
#include "vqm/vulkan/spirv/hvs_terms.hpp"
#include "vqm/vulkan/spirv/hvs_walk.hpp"

namespace vqm::vulkan {

namespace detail {

// std430 mirror of hvs_plane / hvs_params_buf in shaders/hvs_common.glsl.
struct hvs_plane_params {
  std::uint32_t width, height, bx, by;
  std::uint32_t block_offset, ref_byte, dis_byte, stride;
  std::uint32_t levels, pad[3];
  std::uint32_t node_offset[serial_sum_max_levels];
  std::uint32_t node_count[serial_sum_max_levels];
  std::uint32_t run_blocks[serial_sum_max_levels];
};
static_assert(sizeof(hvs_plane_params) == 36 * 4);

struct hvs_params {
  float csf[192];
  float mask[192];
  std::uint32_t bytes_per_sample, total_blocks, total_nodes;
  float k63, k15;
  std::uint32_t pad[3];
  hvs_plane_params plane[3];
};
static_assert(sizeof(hvs_params) == (384 + 8) * 4 + 3 * sizeof(hvs_plane_params));

}  // namespace detail

class psnr_hvs_kernel {
 public:
  // Plane sizes are fmt's with chroma rounding `r` (chroma_rounding::floor reproduces libvmaf on odd sizes);
  // the planes given to record() must have exactly these sizes. `slots` independent sets of scratch buffers
  // (one per frame in flight); pipelines and constants are shared. Everything is allocated here, once.
  psnr_hvs_kernel(context& ctx, const picture_format& fmt, chroma_rounding r = chroma_rounding::ceil,
                  std::size_t slots = 1)
      : ctx_(&ctx), fmt_(fmt) {
    if (fmt.bit_depth < 8 || fmt.bit_depth > 12 || fmt.chroma == chroma_format::yuv400)
      throw error(errc::unsupported_format, "psnr_hvs on Vulkan needs 8 to 12-bit input with chroma planes, got " +
                                                describe(fmt));
    if (!ctx.has_float64())
      throw error(errc::backend_unavailable, "psnr_hvs on Vulkan needs shaderFloat64, which " + ctx.name() +
                                                 " lacks (use the Cpu backend for psnr_hvs)");
    if (slots == 0) slots = 1;
    if (ctx.limits().maxComputeSharedMemorySize < terms_shared_bytes)
      throw error(errc::backend_unavailable, "psnr_hvs on Vulkan needs " + std::to_string(terms_shared_bytes) +
                                                 " bytes of compute shared memory; " + ctx.name() + " has " +
                                                 std::to_string(ctx.limits().maxComputeSharedMemorySize) +
                                                 " (use the Cpu backend for psnr_hvs)");
    const std::uint32_t bps = fmt.bit_depth > 8 ? 2 : 1;
    detail::hvs_params prm{};
    for (int p = 0; p < 3; ++p)
      for (int k = 0; k < 64; ++k) {
        prm.csf[p * 64 + k] = (*tables::csf[p])[k / 8][k % 8];
        prm.mask[p * 64 + k] = tables::mask[p][k / 8][k % 8];
      }
    prm.bytes_per_sample = bps;
    prm.k63 = tables::k63;
    prm.k15 = tables::k15;
    std::uint64_t blocks = 0, nodes = 0;
    for (int p = 0; p < 3; ++p) {
      auto& pp = prm.plane[p];
      pp.width = fmt.plane_width(p, r);
      pp.height = fmt.plane_height(p, r);
      pp.bx = psnr_hvs_blocks(pp.width);
      pp.by = psnr_hvs_blocks(pp.height);
      pp.block_offset = static_cast<std::uint32_t>(blocks);
      const auto lv = plan_serial_sum(pp.bx * pp.by);
      pp.levels = lv.levels;
      for (std::uint32_t l = 0; l < lv.levels; ++l) {
        pp.node_offset[l] = static_cast<std::uint32_t>(nodes);
        pp.node_count[l] = lv.node_count[l];
        pp.run_blocks[l] = lv.run_blocks[l];
        nodes += lv.node_count[l];
      }
      blocks += std::uint64_t{pp.bx} * pp.by;
      groups_ += (pp.bx * pp.by + serial_sum_fan - 1) / serial_sum_fan;
    }
    if (blocks * 64 >= (1ull << 32))
      throw error(errc::unsupported_format, "psnr_hvs on Vulkan: picture too large (" + describe(fmt) + ")");
    prm.total_blocks = static_cast<std::uint32_t>(blocks);
    prm.total_nodes = static_cast<std::uint32_t>(nodes);
    params_ = prm;

    params_buf_ = buffer(ctx, sizeof(prm), memory_kind::device_local);
    {
      buffer staging(ctx, sizeof(prm), memory_kind::upload);
      std::memcpy(staging.data(), &prm, sizeof(prm));
      staging.flush();
      one_shot os(ctx);
      const VkBufferCopy c{0, 0, sizeof(prm)};
      ctx.fn().vkCmdCopyBuffer(os, staging, params_buf_, 1, &c);
      barrier(ctx, os, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
              VK_ACCESS_SHADER_READ_BIT);
      os.submit_and_wait();
    }

    terms_pipe_ = compute_pipeline(ctx, spirv::hvs_terms, 6, sizeof(terms_push));
    scan_pipe_ = compute_pipeline(ctx, spirv::hvs_scan, 2);
    tables_pipe_ = compute_pipeline(ctx, spirv::hvs_tables, 5);
    walk_pipe_ = compute_pipeline(ctx, spirv::hvs_walk, 4, 2 * sizeof(std::uint32_t));
    const auto n = static_cast<std::uint32_t>(slots);
    pool_ = descriptor_pool(ctx, 2 * n, 7 * n);
    blocks_ = blocks;
    nodes_ = nodes;
    scratch_.resize(slots);  // each slot's buffers on its first frame (start-up pays for one)
  }

  psnr_hvs_kernel(const psnr_hvs_kernel&) = delete;
  psnr_hvs_kernel& operator=(const psnr_hvs_kernel&) = delete;

  // What one frame's dispatches need: its descriptor sets and push constants (prepare()).
  struct frame_args {
    std::size_t slot = 0;
    VkDescriptorSet terms_set = VK_NULL_HANDLE, walk_set = VK_NULL_HANDLE;
    std::uint32_t ref_byte[3]{}, dis_byte[3]{}, ref_stride[3]{}, dis_stride[3]{};
    std::uint32_t out_word = 0;
  };
  // terms, scan, tables, walk (first half), walk (second half): each needs the previous one's writes.
  static constexpr int stages = 5;
  static constexpr int serial_stages = 2;  // the walk's two halves: one workgroup per plane, latency-bound

  // Records the whole computation on scratch slot 0; the 3 floats ret[0..2] land at out + out_offset
  // (a multiple of 4) through a shader write (follow with a compute -> host or compute -> shader barrier).
  // The planes are read in place (each picture's three planes in one buffer, samples aligned) and may have
  // been written by a transfer or the host before this; earlier record()s on the same queue are waited for
  // (the scratch buffers are shared).
  void record(VkCommandBuffer cb, const std::array<plane_binding, 3>& ref, const std::array<plane_binding, 3>& dis,
              VkBuffer out, VkDeviceSize out_offset) {
    const frame_args a = prepare(ref, dis, out, out_offset, 0);
    // The caller's upload (transfer/host) and earlier shader work on this scratch -> us.
    barrier(*ctx_, cb, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
            VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_HOST_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT,
            VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    for (int st = 0; st < stages; ++st) {
      if (st > 0) compute_to_compute(*ctx_, cb);
      record_stage(cb, a, st);
    }
  }

  // Stage-wise recording (the backend interleaves these with other metrics' stages): prepare() checks the
  // bindings and picks scratch `slot`; record_stage(cb, a, 0..4) must be separated by compute -> compute
  // barriers. Nothing orders a slot's reuse: the caller guarantees the slot's previous frame has completed
  // (e.g. its fence was waited for) and that the planes' writes are visible to compute shaders.
  [[nodiscard]] frame_args prepare(const std::array<plane_binding, 3>& ref, const std::array<plane_binding, 3>& dis,
                                   VkBuffer out, VkDeviceSize out_offset, std::size_t slot) {
    const std::uint32_t bps = params_.bytes_per_sample;
    if (slot >= scratch_.size())
      throw error(errc::invalid_argument, "psnr_hvs_kernel: scratch slot " + std::to_string(slot) + " of " +
                                              std::to_string(scratch_.size()));
    frame_args a;
    a.slot = slot;
    for (int i = 0; i < 6; ++i) {
      const plane_binding& b = i < 3 ? ref[i] : dis[i - 3];
      const auto& pp = params_.plane[i % 3];
      if (b.buffer == VK_NULL_HANDLE || b.width != pp.width || b.height != pp.height ||
          b.bit_depth != fmt_.bit_depth || b.stride_bytes < pp.width * bps)
        throw error(errc::invalid_argument,
                    "psnr_hvs_kernel::record: plane " + std::to_string(i % 3) + " binding is " + std::to_string(b.width) +
                        "x" + std::to_string(b.height) + " " + std::to_string(b.bit_depth) + "-bit, stride " +
                        std::to_string(b.stride_bytes) + "; the kernel was built for " + std::to_string(pp.width) + "x" +
                        std::to_string(pp.height) + " " + std::to_string(fmt_.bit_depth) + "-bit");
      const VkDeviceSize end = b.offset + VkDeviceSize{b.stride_bytes} * (pp.height ? pp.height - 1 : 0) + pp.width * bps;
      if (b.offset % bps != 0 || b.stride_bytes % bps != 0 || end >= (VkDeviceSize{1} << 32) ||
          (i % 3 != 0 && b.buffer != (i < 3 ? ref[0] : dis[0]).buffer))
        throw error(errc::invalid_argument,
                    "psnr_hvs_kernel::record: plane " + std::to_string(i % 3) +
                        " must lie in the same buffer as luma, sample-aligned, below 4 GiB");
      // Plain branches: GCC 12 with -fsanitize=shift (or signed-integer-overflow) dropped the stores of
      // `(i < 3 ? a.ref_byte : a.dis_byte)[i % 3] = ...` for distorted planes 0 and 1.
      if (i < 3) {
        a.ref_byte[i] = static_cast<std::uint32_t>(b.offset);
        a.ref_stride[i] = b.stride_bytes;
      } else {
        a.dis_byte[i - 3] = static_cast<std::uint32_t>(b.offset);
        a.dis_stride[i - 3] = b.stride_bytes;
      }
    }
    if (out_offset % 4 != 0 || out_offset / 4 + 3 >= (VkDeviceSize{1} << 32))
      throw error(errc::invalid_argument, "psnr_hvs_kernel::record: out_offset must be a multiple of 4");
    a.out_word = static_cast<std::uint32_t>(out_offset / 4);
    auto& sc = ensure_scratch(slot);
    a.terms_set = set_for(sc.terms_sets, ref[0].buffer, dis[0].buffer, terms_pipe_, [&](VkDescriptorSet s) {
      write_storage_buffers(*ctx_, s,
                            {params_buf_.range(), VkDescriptorBufferInfo{ref[0].buffer, 0, VK_WHOLE_SIZE},
                             VkDescriptorBufferInfo{dis[0].buffer, 0, VK_WHOLE_SIZE}, sc.terms.range(),
                             sc.block_sum.range(), sc.group_sum.range()});
    });
    a.walk_set = set_for(sc.walk_sets, out, VK_NULL_HANDLE, walk_pipe_, [&](VkDescriptorSet s) {
      write_storage_buffers(*ctx_, s, {params_buf_.range(), sc.terms.range(), sc.tables.range(),
                                       VkDescriptorBufferInfo{out, 0, VK_WHOLE_SIZE}});
    });
    return a;
  }

  void record_stage(VkCommandBuffer cb, const frame_args& a, int stage) const {
    const auto& sc = scratch_[a.slot];
    if (params_.total_blocks == 0 && stage < 3) return;
    switch (stage) {
      case 0: {
        terms_push pc{};
        for (int p = 0; p < 3; ++p) {
          pc.ref_byte[p] = a.ref_byte[p];
          pc.dis_byte[p] = a.dis_byte[p];
          pc.ref_stride[p] = a.ref_stride[p];
          pc.dis_stride[p] = a.dis_stride[p];
        }
        terms_pipe_.bind(cb, a.terms_set);
        terms_pipe_.push(cb, pc);
        terms_pipe_.dispatch(cb, 4 * groups_);  // a quarter group (4 blocks) per workgroup
        break;
      }
      case 1:
        scan_pipe_.bind(cb, sc.scan_set);
        scan_pipe_.dispatch(cb, 3);
        break;
      case 2:
        tables_pipe_.bind(cb, sc.tables_set);  // levels 0 and 1, one workgroup per group of 16 blocks
        tables_pipe_.dispatch(cb, groups_);
        break;
      case 3:
      case 4: {
        const std::array<std::uint32_t, 2> pc{a.out_word, static_cast<std::uint32_t>(stage - 3)};  // word, phase
        walk_pipe_.bind(cb, a.walk_set);
        walk_pipe_.push(cb, pc);
        walk_pipe_.dispatch(cb, 3);
        break;
      }
      default: break;
    }
  }

  [[nodiscard]] const picture_format& format() const noexcept { return fmt_; }
  [[nodiscard]] std::size_t slots() const noexcept { return scratch_.size(); }

 private:
  // hvs_terms.comp's shared arrays (4 blocks per workgroup).
  static constexpr std::uint32_t terms_shared_bytes = 3 * 4 * 2 * 64 * 4 + 4 * 2 * 4 * 4 + 4 * 2 * 4 + 4 * 16 * 8 + 4 * 8;
  struct terms_push {
    std::uint32_t ref_byte[3], dis_byte[3], ref_stride[3], dis_stride[3];
  };
  struct cached_set {
    VkBuffer a, b;
    VkDescriptorSet set;
  };
  struct scratch {
    buffer terms, block_sum, tables, group_sum;
    VkDescriptorSet scan_set = VK_NULL_HANDLE, tables_set = VK_NULL_HANDLE;
    std::vector<cached_set> terms_sets, walk_sets;  // by the caller's buffers
  };

  scratch& ensure_scratch(std::size_t slot) {
    auto& sc = scratch_[slot];
    if (sc.terms) return sc;
    const context& ctx = *ctx_;
    sc.terms = buffer(ctx, blocks_ * 64 * sizeof(float), memory_kind::device_local);
    sc.block_sum = buffer(ctx, blocks_ * sizeof(double), memory_kind::device_local);
    sc.tables = buffer(ctx, nodes_ * 32 + 3 * 16, memory_kind::device_local);  // + the walk's state per plane
    // 4 quarter sums per group (hvs_terms), then the group prefixes (hvs_scan).
    sc.group_sum = buffer(ctx, std::max<std::uint64_t>(groups_, 1) * 5 * sizeof(double), memory_kind::device_local);
    sc.scan_set = pool_.allocate(scan_pipe_.set_layout());
    sc.tables_set = pool_.allocate(tables_pipe_.set_layout());
    write_storage_buffers(ctx, sc.scan_set, {params_buf_.range(), sc.group_sum.range()});
    write_storage_buffers(ctx, sc.tables_set, {params_buf_.range(), sc.terms.range(), sc.block_sum.range(),
                                               sc.tables.range(), sc.group_sum.range()});
    return sc;
  }

  // The descriptor set of `pipe` for buffers (a, b), written on first use. Sets are never freed (they may
  // be in flight); the pools grow with the number of distinct buffers a caller rotates through.
  template <class Write>
  VkDescriptorSet set_for(std::vector<cached_set>& cache, VkBuffer a, VkBuffer b, const compute_pipeline& pipe,
                          Write&& write) {
    for (const auto& c : cache)
      if (c.a == a && c.b == b) return c.set;
    if (extra_pools_.empty() || extra_left_ == 0) {
      extra_pools_.emplace_back(*ctx_, 32, 32 * 5);
      extra_left_ = 32;
    }
    const VkDescriptorSet s = extra_pools_.back().allocate(pipe.set_layout());
    --extra_left_;
    write(s);
    cache.push_back({a, b, s});
    return s;
  }

  context* ctx_;
  picture_format fmt_;
  detail::hvs_params params_{};
  buffer params_buf_;
  compute_pipeline terms_pipe_, scan_pipe_, tables_pipe_, walk_pipe_;
  descriptor_pool pool_;
  std::vector<descriptor_pool> extra_pools_;
  std::uint32_t extra_left_ = 0;
  std::vector<scratch> scratch_;
  std::uint64_t blocks_ = 0, nodes_ = 0;
  std::uint32_t groups_ = 0;  // level-1 groups of 16 blocks, all planes: the terms and tables workgroups
};

}  // namespace vqm::vulkan
