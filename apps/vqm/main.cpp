// vqm: compare a distorted video with its reference and write libvmaf-compatible scores.
// Flags follow libvmaf's `vmaf` tool; see docs/cli.md. The program is run_cli (app.hpp).
#include "app.hpp"

int main(int argc, char** argv) {
  vqm::cli::reserve_standard_fds();  // before anything opens a file: no output may become fd 0-2
  return vqm::cli::run_cli(argc, argv);
}
