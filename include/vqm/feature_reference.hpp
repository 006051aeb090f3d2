// Every registered feature's outputs and options, as text (the CLI's `--feature help`) or as Markdown
// (docs/features.md, which a test keeps equal to this): both come from the algorithms' option tables.
#pragma once

#include <algorithm>
#include <initializer_list>
#include <string_view>
#include <string>
#include <vector>

#include "vqm/registry.hpp"

namespace vqm {

[[nodiscard]] inline std::string feature_reference(bool markdown = false) {
  std::string s;
  // Appended piece by piece: GCC 12 at -O3 misreports "lit" + std::string chains as -Wrestrict.
  const auto add = [&s](std::initializer_list<std::string_view> parts) {
    for (auto p : parts) s += p;
  };
  registry::all::for_each([&]<class E>() {
    using A = typename E::algorithm;
    std::string outputs;
    for (const auto& o : A::provided) {
      if (!outputs.empty()) outputs += ' ';
      outputs += o.printed;
    }
    const auto opts = describe_options<typename A::options>();
    if (markdown) {
      add({"## `", A::feature_name, "`\n\nOutputs: `", outputs, "`\n\n"});
      if (opts.empty()) {
        add({"No options.\n\n"});
        return;
      }
      add({"| option | suffix | type | default | range | meaning |\n|---|---|---|---|---|---|\n"});
      for (const auto& o : opts) {
        add({"| `", o.name, "` | "});
        if (!o.alias.empty()) add({"`_", o.alias, "`"});
        add({" | ", o.type, " | ", o.default_value, " | ", o.range, " | ", o.help, " |\n"});
      }
      add({"\n"});
    } else {
      add({A::feature_name, ": ", outputs, "\n"});
      std::size_t w = 0;
      for (const auto& o : opts) w = std::max(w, o.name.size());
      for (const auto& o : opts) {
        add({"  ", o.name, std::string(w - o.name.size() + 2, ' '), o.type, ", default ", o.default_value});
        if (!o.range.empty()) add({", ", o.range});
        add({": ", o.help});
        if (!o.alias.empty()) add({" (renames outputs: _", o.alias, ")"});
        add({"\n"});
      }
    }
  });
  return s;
}

}  // namespace vqm
