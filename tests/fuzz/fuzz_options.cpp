// libFuzzer harness: the feature-option parser (libvmaf's "name=k=v:k=v" after --feature) and what the
// metric factory makes of the options, and the --precision parser. Lines of the input are separate
// --feature values; a vqm::error is a correct answer.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "../../apps/vqm/number_format.hpp"
#include "vqm/cpu.hpp"
#include "vqm/error.hpp"
#include "vqm/metric_factory.hpp"
#include "vqm/feature/options.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  while (!text.empty()) {
    const auto nl = text.find('\n');
    const auto line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    try {
      (void)vqm::cli::number_format::parse(std::string(line));
    } catch (const vqm::error&) {
    }
    try {
      // As the CLI splits "--feature NAME=opts".
      const auto eq = line.find('=');
      const auto name = line.substr(0, eq);
      const auto opts = eq == std::string_view::npos ? vqm::option_map{} : vqm::option_map::parse(line.substr(eq + 1));
      for (const auto mode : {vqm::compat::none, vqm::compat::libvmaf}) {
        try {
          const vqm::picture_format f{64 + static_cast<std::uint32_t>(size % 200), 48, vqm::chroma_format::yuv420,
                                      size % 2 ? 8u : 10u};
          (void)vqm::make_metric<vqm::Cpu>(name, opts, f, mode);
        } catch (const vqm::error&) {
        }
      }
    } catch (const vqm::error&) {
    }
  }
  return 0;
}
