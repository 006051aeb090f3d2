// vqm — video-quality metrics with libvmaf's numbers. The core: pictures, metrics, concepts, scorer.
// No third-party dependency; backends live in vqm/cpu.hpp and vqm/vulkan.hpp.
#pragma once

#include "vqm/any_metric.hpp"          // IWYU pragma: export
#include "vqm/compat.hpp"              // IWYU pragma: export
#include "vqm/error.hpp"               // IWYU pragma: export
#include "vqm/metric_factory.hpp"      // IWYU pragma: export
#include "vqm/metrics/float_psnr.hpp"  // IWYU pragma: export
#include "vqm/metrics/ms_ssim.hpp"     // IWYU pragma: export
#include "vqm/metrics/psnr.hpp"        // IWYU pragma: export
#include "vqm/metrics/psnr_hvs.hpp"    // IWYU pragma: export
#include "vqm/metrics/ssim.hpp"        // IWYU pragma: export
#include "vqm/feature/options.hpp"             // IWYU pragma: export
#include "vqm/picture.hpp"             // IWYU pragma: export
#include "vqm/registry.hpp"            // IWYU pragma: export
#include "vqm/scorer.hpp"              // IWYU pragma: export
#include "vqm/version.hpp"             // IWYU pragma: export
