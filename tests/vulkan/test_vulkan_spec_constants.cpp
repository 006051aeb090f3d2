// Named specialization constants: the generated spirv::<stem>_constants (read at configure time from the
// preprocessed GLSL, cmake/VqmShaders.cmake) against what glslc compiled — every constant's SpecId and type
// in the SPIR-V, and no SpecId the header lacks — and specialization::set's checks. No device needed.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <span>
#include <string>
#include <tuple>
#include <type_traits>

#include "vqm/error.hpp"
#include "vqm/vulkan/pipeline.hpp"
#include "vqm/vulkan/spirv/adm_cvt_test.hpp"
#include "vqm/vulkan/spirv/adm_dwt.hpp"
#include "vqm/vulkan/spirv/adm_reduce.hpp"
#include "vqm/vulkan/spirv/adm_score.hpp"
#include "vqm/vulkan/spirv/lpf_u16.hpp"
#include "vqm/vulkan/spirv/lpf_u8.hpp"
#include "vqm/vulkan/spirv/ms_ssim_decimate.hpp"
#include "vqm/vulkan/spirv/reduce_f64.hpp"
#include "vqm/vulkan/spirv/selftest.hpp"
#include "vqm/vulkan/spirv/ssim_hpass.hpp"
#include "vqm/vulkan/spirv/ssim_prepare.hpp"
#include "vqm/vulkan/spirv/ssim_vpass.hpp"
#include "vqm/vulkan/spirv/vif_down.hpp"
#include "vqm/vulkan/spirv/vif_stats.hpp"
#include "common/test_namespace.hpp"

namespace VQM_TEST_UNIT {

using namespace vqm;

// What the SPIR-V says of each specialization constant: its SpecId and its type, by its OpName.
struct spirv_constant {
  std::uint32_t spec_id = ~0u;
  char kind = '?';  // 'b' bool, 'i' signed, 'u' unsigned, 'f' float
  std::uint32_t bits = 0;
};

std::map<std::string, spirv_constant> spec_constants_of(std::span<const std::uint32_t> code) {
  enum : std::uint32_t { op_name = 5, op_type_bool = 20, op_type_int = 21, op_type_float = 22,
                         op_spec_true = 48, op_spec_false = 49, op_spec = 50, op_decorate = 71, spec_id = 1 };
  std::map<std::uint32_t, std::string> names;
  std::map<std::uint32_t, std::uint32_t> ids, type_of;
  std::map<std::uint32_t, std::pair<char, std::uint32_t>> types;
  for (std::size_t i = 5; i < code.size();) {
    const std::uint32_t op = code[i] & 0xffffu, n = code[i] >> 16;
    if (n == 0 || i + n > code.size()) throw error(errc::invalid_argument, "malformed SPIR-V");
    const auto a = code.subspan(i + 1, n - 1);
    if (op == op_name) {
      std::string s(reinterpret_cast<const char*>(a.data() + 1), (a.size() - 1) * 4);
      names[a[0]] = s.c_str();
    } else if (op == op_decorate && a[1] == spec_id) {
      ids[a[0]] = a[2];
    } else if (op == op_type_bool) {
      types[a[0]] = {'b', 32};
    } else if (op == op_type_int) {
      types[a[0]] = {a[2] ? 'i' : 'u', a[1]};
    } else if (op == op_type_float) {
      types[a[0]] = {'f', a[1]};
    } else if (op == op_spec || op == op_spec_true || op == op_spec_false) {
      type_of[a[1]] = a[0];
    }
    i += n;
  }
  std::map<std::string, spirv_constant> out;
  for (const auto& [result, id] : ids) {
    const auto t = types.at(type_of.at(result));
    out[names.at(result)] = {id, t.first, t.second};
  }
  return out;
}

template <class T>
constexpr char kind_of() {
  if constexpr (std::is_same_v<T, bool>) return 'b';
  else if constexpr (std::is_floating_point_v<T>) return 'f';
  else return std::is_signed_v<T> ? 'i' : 'u';
}

template <class K, std::size_t N>
void expect_matches_spirv(const std::uint32_t (&code)[N], const char* shader) {
  const auto compiled = spec_constants_of(code);
  EXPECT_EQ(std::tuple_size_v<decltype(K::all)>, compiled.size()) << shader << ": constants the header lacks";
  std::apply(
      [&](const auto&... c) {
        const auto check = [&](const auto& k) {
          using T = typename std::remove_cvref_t<decltype(k)>::type;
          const auto it = compiled.find(k.name);
          ASSERT_NE(it, compiled.end()) << shader << ": " << k.name << " is not in the SPIR-V";
          EXPECT_EQ(it->second.spec_id, k.id) << shader << ": " << k.name;
          EXPECT_EQ(it->second.kind, kind_of<T>()) << shader << ": " << k.name;
          EXPECT_EQ(it->second.bits, (std::is_same_v<T, bool> ? 32u : 8u * sizeof(T))) << shader << ": " << k.name;
        };
        (check(c), ...);
      },
      K::all);
}

#define VQM_EXPECT_MATCHES_SPIRV(stem) expect_matches_spirv<vulkan::spirv::stem##_constants>(vulkan::spirv::stem, #stem)

TEST(VulkanSpecConstants, GeneratedNamesMatchTheCompiledShaders) {
  VQM_EXPECT_MATCHES_SPIRV(selftest);
  VQM_EXPECT_MATCHES_SPIRV(adm_dwt);
  VQM_EXPECT_MATCHES_SPIRV(adm_score);
  VQM_EXPECT_MATCHES_SPIRV(adm_reduce);
  VQM_EXPECT_MATCHES_SPIRV(adm_cvt_test);
  VQM_EXPECT_MATCHES_SPIRV(ssim_prepare);
  VQM_EXPECT_MATCHES_SPIRV(ssim_hpass);
  VQM_EXPECT_MATCHES_SPIRV(ssim_vpass);
  VQM_EXPECT_MATCHES_SPIRV(reduce_f64);
  VQM_EXPECT_MATCHES_SPIRV(ms_ssim_decimate);
  VQM_EXPECT_MATCHES_SPIRV(vif_stats);
  VQM_EXPECT_MATCHES_SPIRV(vif_down);
  VQM_EXPECT_MATCHES_SPIRV(lpf_u8);
  VQM_EXPECT_MATCHES_SPIRV(lpf_u16);
}

#undef VQM_EXPECT_MATCHES_SPIRV

// Runs NAME0..NAMEk are arrays in index order; a run that does not start at 0 (ssim's C1..C3) is not.
TEST(VulkanSpecConstants, RunsAreArrays) {
  using vif = vulkan::spirv::vif_stats_constants;
  static_assert(vif::c.size() == 17 && vif::c[0].id == vif::c0.id && vif::c[16].id == vif::c16.id);
  using ssim = vulkan::spirv::ssim_hpass_constants;
  static_assert(ssim::g.size() == 11 && ssim::g[10].id == ssim::g10.id);
  static_assert(std::is_same_v<decltype(ssim::c1)::type, float>);
  using adm = vulkan::spirv::adm_dwt_constants;
  static_assert(adm::csf0_round.size() == 3 && adm::csf0_round[2].id == adm::csf0_round2.id);
}

// The value is stored in the shader's type; one that type cannot hold exactly throws.
TEST(VulkanSpecConstants, SetStoresTheShadersType) {
  using adm = vulkan::spirv::adm_dwt_constants;
  vulkan::specialization s;
  s.set(adm::v_round, 32768).set(adm::cos1_sq, 0.5f).set(vulkan::spirv::lpf_u8_constants::count, true);
  const VkSpecializationInfo info = s.info();
  ASSERT_EQ(info.mapEntryCount, 3u);
  EXPECT_EQ(info.pMapEntries[0].constantID, adm::v_round.id);
  EXPECT_EQ(info.pMapEntries[0].size, 8u);  // int64_t, though an int was given
  EXPECT_EQ(info.pMapEntries[1].size, 8u);  // double
  EXPECT_EQ(info.pMapEntries[2].size, 4u);  // VkBool32
  std::int64_t v = 0;
  std::memcpy(&v, static_cast<const std::byte*>(info.pData) + info.pMapEntries[0].offset, 8);
  EXPECT_EQ(v, 32768);

  EXPECT_THROW(s.set(vulkan::spirv::selftest_constants::scale, -1), error);  // uint
  EXPECT_THROW(s.set(adm::scale, std::int64_t{1} << 40), error);            // int
  EXPECT_THROW(s.set(vulkan::spirv::ssim_hpass_constants::c1, 0.1), error);  // float
  EXPECT_THROW(s.set(vulkan::spirv::lpf_u8_constants::count, 2), error);     // bool
  EXPECT_EQ(s.info().mapEntryCount, 3u);
}

}  // namespace
