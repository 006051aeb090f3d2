// Output writers in libvmaf's layouts (libvmaf/src/output.c): XML (its default), JSON, CSV, SUB.
#pragma once

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "vqm/output/number_format.hpp"
#include "vqm/output/report.hpp"
#include "vqm/vqm.hpp"

namespace vqm::output {

enum class output_format { xml, json, csv, sub };

// put(fmt, args...) appends to a buffer (format strings stay checked at compile time).
struct appender {
  fmt::memory_buffer& out;
  template <class... T>
  void operator()(fmt::format_string<T...> f, T&&... a) const {
    fmt::format_to(std::back_inserter(out), f, std::forward<T>(a)...);
  }
};

// JSON has no inf/nan: libvmaf writes null for both.
[[nodiscard]] inline std::string json_number(const number_format& nf, double v) {
  return std::isfinite(v) ? nf(v) : "null";
}

[[nodiscard]] inline std::string write_json(const report& r, const number_format& nf) {
  fmt::memory_buffer out;
  const appender put{out};
  put("{{\n  \"version\": \"{}\",\n", r.version);
  put("  \"fps\": {},\n", std::isfinite(r.fps) ? fmt::format("{:.2f}", r.fps) : "null");
  put("  \"frames\": [");
  for (std::size_t i = 0; i < r.frames.size(); ++i) {
    const auto& f = r.frames[i];
    put("{}    {{\n      \"frameNum\": {},\n      \"metrics\": {{\n", i > 0 ? ",\n" : "\n", f.index);
    // libvmaf writes a non-finite frame value without the newline after it (output.c): the next value,
    // or the closing brace, follows on the same line. Kept for byte-identical files.
    for (std::size_t k = 0; k < r.names.size(); ++k)
      put("        \"{}\": {}{}{}", r.names[k], json_number(nf, f.values[k]), k + 1 < r.names.size() ? "," : "",
          std::isfinite(f.values[k]) ? "\n" : "");
    put("      }}\n    }}");
  }
  put("\n  ],\n  \"pooled_metrics\": {{");
  for (std::size_t k = 0; k < r.names.size(); ++k) {
    put("{}    \"{}\": {{", k > 0 ? ",\n" : "\n", r.names[k]);
    const auto stats = r.pooled_values(k);
    for (std::size_t i = 0; i < stats.size(); ++i)
      put("{}      \"{}\": {}", i > 0 ? ",\n" : "\n", stats[i].first, json_number(nf, stats[i].second));
    put("\n    }}");
  }
  put("\n  }},\n  \"aggregate_metrics\": {{");
  for (std::size_t i = 0; i < r.aggregate.size(); ++i)
    put("\n    \"{}\": {}{}", r.aggregate[i].first, json_number(nf, r.aggregate[i].second),
        i + 1 < r.aggregate.size() ? "," : "");
  put("\n  }}\n}}\n");
  return fmt::to_string(out);
}

[[nodiscard]] inline std::string write_xml(const report& r, const number_format& nf) {
  fmt::memory_buffer out;
  const appender put{out};
  put("<VMAF version=\"{}\">\n", r.version);
  put("  <params qualityWidth=\"{}\" qualityHeight=\"{}\" />\n", r.width, r.height);
  put("  <fyi fps=\"{:.2f}\" />\n", r.fps);
  put("  <frames>\n");
  for (const auto& f : r.frames) {
    put("    <frame frameNum=\"{}\" ", f.index);
    for (std::size_t k = 0; k < r.names.size(); ++k) put("{}=\"{}\" ", r.names[k], nf.literal(f.values[k]));
    put("/>\n");
  }
  put("  </frames>\n  <pooled_metrics>\n");
  for (std::size_t k = 0; k < r.names.size(); ++k) {
    put("    <metric name=\"{}\" ", r.names[k]);
    for (const auto& [stat, v] : r.pooled_values(k)) put("{}=\"{}\" ", stat, nf.literal(v));
    put("/>\n");
  }
  put("  </pooled_metrics>\n  <aggregate_metrics ");
  for (const auto& [name, v] : r.aggregate) put("{}=\"{}\" ", name, nf.literal(v));
  put("/>\n</VMAF>\n");
  return fmt::to_string(out);
}

[[nodiscard]] inline std::string write_csv(const report& r, const number_format& nf) {
  fmt::memory_buffer out;
  const appender put{out};
  put("Frame,");
  for (const auto& n : r.names) put("{},", n);
  put("\n");
  for (const auto& f : r.frames) {
    put("{},", f.index);
    for (double v : f.values) put("{},", nf.literal(v));
    put("\n");
  }
  // libvmaf's CSV has no pooled values; with --pool, one row per statistic follows the frames, named in
  // the Frame column ("mean,35.2,...,").
  if (r.custom_pool()) {
    std::vector<std::vector<std::pair<std::string, double>>> cols;
    for (std::size_t k = 0; k < r.names.size(); ++k) cols.push_back(r.pooled_values(k));
    for (std::size_t i = 0; i < r.statistics.size(); ++i) {
      put("{},", r.statistics[i].name);
      for (const auto& c : cols) put("{},", nf.literal(c[i].second));
      put("\n");
    }
  }
  return fmt::to_string(out);
}

// libvmaf's subtitle layout (MicroDVD: "{frame}{frame+1}" then the values), one line per measured frame.
[[nodiscard]] inline std::string write_sub(const report& r, const number_format& nf) {
  fmt::memory_buffer out;
  const appender put{out};
  for (const auto& f : r.frames) {
    put("{{{}}}{{{}}}frame: {}|", f.index, f.index + 1, f.index);
    for (std::size_t k = 0; k < r.names.size(); ++k) put("{}: {}|", r.names[k], nf.literal(f.values[k]));
    put("\n");
  }
  return fmt::to_string(out);
}

[[nodiscard]] inline std::string write_report(output_format fmt_, const report& r, const number_format& nf) {
  switch (fmt_) {
    case output_format::json: return write_json(r, nf);
    case output_format::csv: return write_csv(r, nf);
    case output_format::sub: return write_sub(r, nf);
    case output_format::xml: break;
  }
  return write_xml(r, nf);
}

}  // namespace vqm::output
