// The command line as libvmaf's `vmaf` reads it (getopt_long): long options may be shortened to any
// unique prefix (--ref, --feat), and libvmaf's flags that vqm does not implement are refused with one
// line naming the flag and what vqm offers instead, never a generic parser message.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "errors.hpp"  // usage_error

namespace vqm::cli {

struct unsupported_flag {
  const char* name;  // long name without "--"
  const char* instead;
};

// Every flag of libvmaf's cli_parse.c (3.x, colorimetry flags of its current head included) that vqm
// does not implement. The others work as in libvmaf (docs/cli.md, "libvmaf compatibility").
inline constexpr unsupported_flag unsupported_flags[] = {
    {"cpumask", "vqm has no instruction-set mask: its Cpu kernels give the same numbers on every CPU (--threads N "
                "limits the cores used)"},
    {"gpumask", "vqm's GPU backend is Vulkan: choose it with --backend vulkan or auto and the devices with --devices "
                "all|N,... (see --list-devices; --gpu-id N picks one)"},
    {"aom_ctc", "vqm has no presets; AOM CTC's set is --model version=vmaf_v0.6.1 "
                "--model version=vmaf_v0.6.1neg:name=vmaf_neg --feature "
                "psnr=reduced_hbd_peak=true:enable_apsnr=true:min_sse=0.5 --feature float_ssim=enable_db=true:clip_db=true "
                "(v7.0: float_ssim=scale=1:enable_db=true:clip_db=true) --feature "
                "float_ms_ssim=enable_db=true:clip_db=true --feature psnr_hvs --feature ciede --feature cambi (v3.0 and later) "
                "(cambi: Cpu backend), and mixed bit depths (v6.0) are always "
                "scored at the higher depth"},
    {"nflx_ctc", "vqm has no presets; the set is --model version=vmaf_4k_v0.6.1 --model "
                 "version=vmaf_4k_v0.6.1neg:name=vmaf_neg --feature psnr=enable_chroma=true:enable_apsnr=true "
                 "--feature float_ssim=enable_db=true:clip_db=true --feature cambi (Cpu backend)"},
    {"color_range_ref", nullptr},
    {"color_range_dist", nullptr},
    {"color_primaries_ref", nullptr},
    {"color_primaries_dist", nullptr},
    {"color_trc_ref", nullptr},
    {"color_trc_dist", nullptr},
    {"color_matrix_ref", nullptr},
    {"color_matrix_dist", nullptr},
};
static_assert(std::string_view(unsupported_flags[0].name) == "cpumask");  // -c below refuses with its text
inline constexpr const char* colorimetry_instead =
    "vqm's metrics measure the samples as stored and take no colorimetry; drop the flag (convert the input with "
    "ffmpeg first if it must be)";

// The arguments with getopt_long's unique-prefix long options spelled out, after checking for the
// unsupported flags above (and -c, libvmaf's short --cpumask). Values of options that take one are
// left alone, as is everything after "--".
[[nodiscard]] inline std::vector<std::string> libvmaf_arguments(int argc, char** argv, CLI::App& app) {
  std::vector<std::string> longs;  // vqm's own long names, without "--"
  for (const auto* o : app.get_options())
    for (const auto& n : o->get_lnames()) longs.push_back(n);
  auto takes_value = [&](const std::string& name) {  // name with its dashes
    for (const auto* o : app.get_options())
      if (o->check_name(name)) return o->get_expected_min() > 0;
    return false;
  };
  auto refuse = [](const std::string& flag, const char* instead) {
    throw usage_error(flag + " is not supported: " + (instead ? instead : colorimetry_instead));
  };

  std::vector<std::string> out;
  if (argc > 0) out.emplace_back(argv[0]);
  bool value_next = false, options_end = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (value_next || options_end || a.size() < 2 || a[0] != '-') {
      value_next = false;
      out.push_back(std::move(a));
      continue;
    }
    if (a == "--") {
      options_end = true;
      out.push_back(std::move(a));
      continue;
    }
    if (a[1] != '-') {  // short options: -c is libvmaf's --cpumask
      if (a[1] == 'c') refuse("-c", unsupported_flags[0].instead);
      const std::string name = a.substr(0, 2);
      value_next = a.size() == 2 && takes_value(name);
      out.push_back(std::move(a));
      continue;
    }
    const auto eq = a.find('=');
    std::string name = a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    const std::string rest = eq == std::string::npos ? "" : a.substr(eq);
    // An exact name wins; otherwise a unique prefix of vqm's and libvmaf's names, as getopt_long does.
    auto exact = [&](const std::string& n) {
      for (const auto& u : unsupported_flags)
        if (n == u.name) return true;
      return std::find(longs.begin(), longs.end(), n) != longs.end();
    };
    if (!exact(name) && !name.empty()) {
      std::vector<std::string> hits;
      for (const auto& l : longs)
        if (l.starts_with(name)) hits.push_back(l);
      for (const auto& u : unsupported_flags)
        if (std::string_view(u.name).starts_with(name)) hits.emplace_back(u.name);
      if (hits.size() > 1) {
        std::string list;
        for (const auto& h : hits) (list += list.empty() ? "--" : ", --") += h;
        throw usage_error("--" + name + " is ambiguous (" + list + "); spell the option out");
      }
      if (hits.size() == 1) name = hits[0];
    }
    for (const auto& u : unsupported_flags)
      if (name == u.name) refuse("--" + name, u.instead);
    value_next = rest.empty() && takes_value("--" + name);
    out.push_back("--" + name + rest);
  }
  return out;
}

}  // namespace vqm::cli
