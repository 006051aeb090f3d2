// Whether this test program runs under AddressSanitizer (some checks cannot: ulimit -v, RSS bounds).
#pragma once

namespace vqm::test {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool asan = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool asan = true;
#else
inline constexpr bool asan = false;
#endif
#else
inline constexpr bool asan = false;
#endif

}  // namespace vqm::test
