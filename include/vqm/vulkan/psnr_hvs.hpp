// psnr_hvs_kernel: PSNR-HVS's per-plane binary32 accumulator `ret` on Vulkan, bit-identical to libvmaf's
// serial loop (SPEC §6.5–6.7). Four dispatches: per-block terms (hvs_terms), a scan of block sums for binade
// estimates (hvs_scan), run tables (hvs_tables), the ordered walk (hvs_walk). docs/psnr_hvs_gpu.md.
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
  // the planes given to record() must have exactly these sizes. Everything is allocated here, once.
  psnr_hvs_kernel(context& ctx, const picture_format& fmt, chroma_rounding r = chroma_rounding::ceil)
      : ctx_(&ctx), fmt_(fmt) {
    if (fmt.bit_depth < 8 || fmt.bit_depth > 12 || fmt.chroma == chroma_format::yuv400)
      throw error(errc::unsupported_format, "psnr_hvs on Vulkan needs 8 to 12-bit input with chroma planes, got " +
                                                describe(fmt));
    if (!ctx.has_float64())
      throw error(errc::backend_unavailable, "psnr_hvs on Vulkan needs shaderFloat64, which " + ctx.name() +
                                                 " lacks (use the Cpu backend for psnr_hvs)");
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
    std::uint64_t blocks = 0, nodes = 0, frame_bytes = 0;
    for (int p = 0; p < 3; ++p) {
      auto& pp = prm.plane[p];
      pp.width = fmt.plane_width(p, r);
      pp.height = fmt.plane_height(p, r);
      pp.bx = psnr_hvs_blocks(pp.width);
      pp.by = psnr_hvs_blocks(pp.height);
      pp.stride = (pp.width * bps + 3u) & ~3u;
      pp.block_offset = static_cast<std::uint32_t>(blocks);
      const auto lv = plan_serial_sum(pp.bx * pp.by);
      pp.levels = lv.levels;
      for (std::uint32_t l = 0; l < lv.levels; ++l) {
        pp.node_offset[l] = static_cast<std::uint32_t>(nodes);
        pp.node_count[l] = lv.node_count[l];
        pp.run_blocks[l] = lv.run_blocks[l];
        nodes += lv.node_count[l];
        if (l > 0) upper_nodes_ += lv.node_count[l];
      }
      blocks += std::uint64_t{pp.bx} * pp.by;
      plane_bytes_[p] = std::uint64_t{pp.stride} * pp.height;
    }
    for (int i = 0; i < 6; ++i) {
      plane_offset_[i] = frame_bytes;
      frame_bytes += plane_bytes_[i % 3];
    }
    for (int p = 0; p < 3; ++p) {
      prm.plane[p].ref_byte = static_cast<std::uint32_t>(plane_offset_[p]);
      prm.plane[p].dis_byte = static_cast<std::uint32_t>(plane_offset_[p + 3]);
    }
    if (blocks * 64 >= (1ull << 32) || frame_bytes >= (1ull << 32))
      throw error(errc::unsupported_format, "psnr_hvs on Vulkan: picture too large (" + describe(fmt) + ")");
    prm.total_blocks = static_cast<std::uint32_t>(blocks);
    prm.total_nodes = static_cast<std::uint32_t>(nodes);
    params_ = prm;

    params_buf_ = buffer(ctx, sizeof(prm), memory_kind::device_local);
    frame_ = buffer(ctx, frame_bytes, memory_kind::device_local);
    terms_ = buffer(ctx, blocks * 64 * sizeof(float), memory_kind::device_local);
    block_sum_ = buffer(ctx, blocks * sizeof(double), memory_kind::device_local);
    tables_ = buffer(ctx, nodes * 32, memory_kind::device_local);
    result_ = buffer(ctx, 16, memory_kind::device_local);
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

    terms_pipe_ = compute_pipeline(ctx, spirv::hvs_terms, 4);
    scan_pipe_ = compute_pipeline(ctx, spirv::hvs_scan, 2);
    tables_pipe_ = compute_pipeline(ctx, spirv::hvs_tables, 4, sizeof(std::uint32_t));
    walk_pipe_ = compute_pipeline(ctx, spirv::hvs_walk, 4);
    pool_ = descriptor_pool(ctx, 4, 14);
    terms_set_ = pool_.allocate(terms_pipe_.set_layout());
    scan_set_ = pool_.allocate(scan_pipe_.set_layout());
    tables_set_ = pool_.allocate(tables_pipe_.set_layout());
    walk_set_ = pool_.allocate(walk_pipe_.set_layout());
    write_storage_buffers(ctx, terms_set_, {params_buf_.range(), frame_.range(), terms_.range(), block_sum_.range()});
    write_storage_buffers(ctx, scan_set_, {params_buf_.range(), block_sum_.range()});
    write_storage_buffers(ctx, tables_set_, {params_buf_.range(), terms_.range(), block_sum_.range(), tables_.range()});
    write_storage_buffers(ctx, walk_set_, {params_buf_.range(), terms_.range(), tables_.range(), result_.range()});
    std::uint32_t rows = 0;
    for (int p = 0; p < 3; ++p) rows += prm.plane[p].height;
    regions_.reserve(2 * rows);
  }

  psnr_hvs_kernel(const psnr_hvs_kernel&) = delete;
  psnr_hvs_kernel& operator=(const psnr_hvs_kernel&) = delete;

  // Records the whole computation; the 3 floats ret[0..2] land at out + out_offset through a transfer write
  // (follow with a transfer -> host or transfer -> shader barrier). The planes may have been written by a
  // transfer or the host before this. Work of earlier record()s on the same queue is waited for (the scratch
  // buffers are shared).
  void record(VkCommandBuffer cb, const std::array<plane_binding, 3>& ref, const std::array<plane_binding, 3>& dis,
              VkBuffer out, VkDeviceSize out_offset) {
    const auto& fn = ctx_->fn();
    const std::uint32_t bps = params_.bytes_per_sample;
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
    }
    // The caller's upload (transfer/host) and our previous frame's shader work -> this frame's copies.
    barrier(*ctx_, cb, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
            VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_HOST_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT,
            VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
    // Copy the planes into the kernel's fixed layout: the descriptor sets never change, whatever buffers
    // the caller rotates through (one region per plane when the strides agree, else one per row).
    for (int i = 0; i < 6; ++i) {
      const plane_binding& b = i < 3 ? ref[i] : dis[i - 3];
      const auto& pp = params_.plane[i % 3];
      if (pp.height == 0 || pp.width == 0) continue;
      regions_.clear();
      const VkDeviceSize row = VkDeviceSize{pp.width} * bps;
      if (b.stride_bytes == pp.stride)
        regions_.push_back({b.offset, plane_offset_[i], VkDeviceSize{pp.stride} * (pp.height - 1) + row});
      else
        for (std::uint32_t y = 0; y < pp.height; ++y)
          regions_.push_back({b.offset + VkDeviceSize{y} * b.stride_bytes, plane_offset_[i] + VkDeviceSize{y} * pp.stride, row});
      fn.vkCmdCopyBuffer(cb, b.buffer, frame_, static_cast<std::uint32_t>(regions_.size()), regions_.data());
    }
    barrier(*ctx_, cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
            VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    if (params_.total_blocks > 0) {
      terms_pipe_.bind(cb, terms_set_);
      terms_pipe_.dispatch(cb, (params_.total_blocks + 63) / 64);
      compute_to_compute(*ctx_, cb);
      scan_pipe_.bind(cb, scan_set_);
      scan_pipe_.dispatch(cb, 3);
      compute_to_compute(*ctx_, cb);
      tables_pipe_.bind(cb, tables_set_);
      tables_pipe_.push(cb, std::uint32_t{0});  // level 0: one invocation per block
      tables_pipe_.dispatch(cb, (params_.total_blocks + 63) / 64);
      if (upper_nodes_ > 0) {
        tables_pipe_.push(cb, std::uint32_t{1});  // upper levels: one workgroup per run (no dependency on level 0)
        tables_pipe_.dispatch(cb, std::min<std::uint32_t>(upper_nodes_, 65535));
      }
      compute_to_compute(*ctx_, cb);
    }
    walk_pipe_.bind(cb, walk_set_);
    walk_pipe_.dispatch(cb, 3);
    compute_to_transfer(*ctx_, cb);
    const VkBufferCopy c{0, out_offset, 3 * sizeof(float)};
    fn.vkCmdCopyBuffer(cb, result_, out, 1, &c);
  }

  [[nodiscard]] const picture_format& format() const noexcept { return fmt_; }

 private:
  context* ctx_;
  picture_format fmt_;
  detail::hvs_params params_{};
  std::array<std::uint64_t, 3> plane_bytes_{};
  std::array<VkDeviceSize, 6> plane_offset_{};
  buffer params_buf_, frame_, terms_, block_sum_, tables_, result_;
  compute_pipeline terms_pipe_, scan_pipe_, tables_pipe_, walk_pipe_;
  descriptor_pool pool_;
  VkDescriptorSet terms_set_ = VK_NULL_HANDLE, scan_set_ = VK_NULL_HANDLE, tables_set_ = VK_NULL_HANDLE,
                  walk_set_ = VK_NULL_HANDLE;
  std::vector<VkBufferCopy> regions_;
  std::uint32_t upper_nodes_ = 0;
};

}  // namespace vqm::vulkan
