// vqm: compare a distorted video with its reference and write libvmaf-compatible scores.
// Flags follow libvmaf's `vmaf` tool; see docs/cli.md. The program is run_cli (app.hpp).
#include "app.hpp"

// An AddressSanitizer build of the CLI: Mesa's lavapipe leaks from a module the Vulkan loader has
// already unloaded, which LeakSanitizer can neither attribute nor suppress, so leak checking is off by
// default, as for the test suites that drive a Vulkan driver (ASAN_OPTIONS=detect_leaks=1 turns it on).
#if defined(__SANITIZE_ADDRESS__)
#define VQM_CLI_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define VQM_CLI_ASAN 1
#endif
#endif
#if defined(VQM_CLI_ASAN) && defined(VQM_HAVE_VULKAN) && VQM_HAVE_VULKAN
extern "C" const char* __asan_default_options() { return "detect_leaks=0"; }  // NOLINT
#endif

int main(int argc, char** argv) {
  vqm::cli::reserve_standard_fds();  // before anything opens a file: no output may become fd 0-2
  return vqm::cli::run_cli(argc, argv);
}
