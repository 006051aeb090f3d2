// What every snippet of the docs sees (tests/docs/check_snippets.py): vqm's public headers, and for
// `<!-- snippet: body NAME -->` blocks the variables of prelude NAME, as the parameters of the function the
// block is the body of. Docs name their inputs in the words below; a block that declares one again hides it.
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "vqm/cpu.hpp"
#include "vqm/cpu/simd.hpp"
#include "vqm/io/open.hpp"
#include "vqm/io/y4m.hpp"
#include "vqm/io/yuv.hpp"
#include "vqm/lpf/cpu.hpp"
#include "vqm/lpf/kernels.hpp"
#include "vqm/multi_session.hpp"
#include "vqm/session.hpp"
#include "vqm/thread_pool.hpp"
#include "vqm/vmaf/builtin_models.hpp"
#include "vqm/vqm.hpp"
#if defined(VQM_SNIPPET_HAVE_VULKAN)
#include "vqm/lpf/vulkan.hpp"
#include "vqm/vulkan.hpp"
#endif
#if defined(VQM_SNIPPET_HAVE_FFMPEG)
#include "vqm/io/avframe.hpp"
#include "vqm/io/ffmpeg_scale.hpp"
#endif

// A doc names a value it then leaves unused (`double mean = t.pooled("vmaf").mean;`): fine in prose.
#pragma GCC diagnostic ignored "-Wunused-variable"
#pragma GCC diagnostic ignored "-Wunused-but-set-variable"

#define VQM_SNIPPET_U [[maybe_unused]]
// Streams on the Cpu backend: a session, its inputs (files opened, pictures read) and their format.
#define VQM_SNIPPET_PRELUDE_cpu                                                                              \
  VQM_SNIPPET_U vqm::Cpu &cpu, VQM_SNIPPET_U vqm::session<vqm::Cpu> &session, VQM_SNIPPET_U vqm::session<vqm::Cpu> &s, \
      VQM_SNIPPET_U const vqm::picture_format &format, VQM_SNIPPET_U const vqm::picture_format &ref_format,    \
      VQM_SNIPPET_U vqm::io::frame_source &ref_source, VQM_SNIPPET_U vqm::io::frame_source &dis_source,       \
      VQM_SNIPPET_U vqm::picture &ref_picture, VQM_SNIPPET_U vqm::picture &dis_picture,                       \
      VQM_SNIPPET_U vqm::picture &picture_in, VQM_SNIPPET_U vqm::picture &picture_out,                        \
      VQM_SNIPPET_U const vqm::session_config &cfg, VQM_SNIPPET_U const vqm::option_map &opts

#if defined(VQM_SNIPPET_HAVE_VULKAN)
// The same on the Vulkan backend, with the caller's Vulkan objects (a device vqm borrows, its images and
// semaphores) and a GPU-resident distorted picture.
#define VQM_SNIPPET_PRELUDE_vulkan                                                                           \
  VQM_SNIPPET_U vqm::Vulkan &gpu, VQM_SNIPPET_U vqm::session<vqm::Vulkan> &session,                          \
      VQM_SNIPPET_U const vqm::picture_format &format, VQM_SNIPPET_U vqm::io::frame_source &source,           \
      VQM_SNIPPET_U vqm::picture &ref_picture, VQM_SNIPPET_U vqm::picture &dis_picture,                       \
      VQM_SNIPPET_U const vqm::vulkan::gpu_picture &dis, VQM_SNIPPET_U const vqm::option_map &opts,           \
      VQM_SNIPPET_U const vqm::session_config &cfg, VQM_SNIPPET_U VkInstance instance,                        \
      VQM_SNIPPET_U VkPhysicalDevice physical, VQM_SNIPPET_U VkDevice device, VQM_SNIPPET_U std::uint32_t family, \
      VQM_SNIPPET_U PFN_vkGetInstanceProcAddr gipa, VQM_SNIPPET_U const VkPhysicalDeviceFeatures2 &enabled_features, \
      VQM_SNIPPET_U VkImage img, VQM_SNIPPET_U VkSemaphore decode_done, VQM_SNIPPET_U VkSemaphore vqm_done,    \
      VQM_SNIPPET_U std::uint64_t value, VQM_SNIPPET_U std::uint32_t w, VQM_SNIPPET_U std::uint32_t h
#endif

#if defined(VQM_SNIPPET_HAVE_FFMPEG)
// Frames decoded by the caller with libavcodec, scored on the Cpu backend.
#define VQM_SNIPPET_PRELUDE_ffmpeg                                                                            \
  VQM_SNIPPET_U vqm::session<vqm::Cpu> &session, VQM_SNIPPET_U const AVFrame *fr, VQM_SNIPPET_U const AVFrame *fd, \
      VQM_SNIPPET_U const vqm::picture_format &format, VQM_SNIPPET_U vqm::picture &picture_in,                \
      VQM_SNIPPET_U vqm::picture &picture_out
#endif
