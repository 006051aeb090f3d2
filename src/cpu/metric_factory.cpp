// vqm::cpu_compiled: make_metric<Cpu> instantiated once (vqm/cpu.hpp declares it extern): every registered
// metric's Cpu engine compiled here, not in each translation unit that builds metrics by name.
#include "vqm/cpu.hpp"

namespace vqm {
template any_metric<Cpu> make_metric<Cpu>(std::string_view, const option_map&, const picture_format&, compat);
}  // namespace vqm
