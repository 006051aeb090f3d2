// Compiled by a test, not built: Ssim<MyBackend> must fail to compile with a concept error naming
// SsimKernel. With VQM_CONTROL the same file uses Psnr and must compile (so the failure is Ssim's).
#include "my_backend.hpp"

int main() {
  const vqm::picture_format f{64, 64};
#ifdef VQM_CONTROL
  const vqm::Psnr<MyBackend> metric(f);
#else
  const vqm::Ssim<MyBackend> metric(f);
#endif
  return static_cast<int>(metric.names().size());
}
