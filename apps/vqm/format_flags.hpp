// The output-format flags, one set for the single run and for `vqm merge` (merge writes what the run writes).
#pragma once

#include <CLI/CLI.hpp>

namespace vqm::cli {

// --json, --csv, --xml, --sub: at most one of them; none means XML.
inline void add_format_flags(CLI::App& app, bool& json, bool& csv, bool& xml, bool& sub) {
  auto* json_flag = app.add_flag("--json", json, "Write JSON");
  auto* csv_flag = app.add_flag("--csv", csv, "Write CSV");
  auto* xml_flag = app.add_flag("--xml", xml, "Write XML (the default)");
  auto* sub_flag = app.add_flag("--sub", sub, "Write libvmaf's subtitle output (MicroDVD: one line of scores a frame)");
  json_flag->excludes(csv_flag)->excludes(xml_flag)->excludes(sub_flag);
  csv_flag->excludes(xml_flag)->excludes(sub_flag);
  xml_flag->excludes(sub_flag);
}

}  // namespace vqm::cli
