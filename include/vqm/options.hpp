// Metric options as libvmaf spells them ("enable_lcs=true:scale=2"), parsed without third-party code.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "vqm/error.hpp"

namespace vqm {

class option_map {
 public:
  option_map() = default;
  option_map(std::initializer_list<std::pair<std::string, std::string>> kv) : kv_(kv) {}

  // "k=v:k=v" (the part after "feature=" on libvmaf's command line).
  [[nodiscard]] static option_map parse(std::string_view text) {
    option_map m;
    while (!text.empty()) {
      const auto colon = text.find(':');
      const auto item = text.substr(0, colon);
      const auto eq = item.find('=');
      if (eq == std::string_view::npos || eq == 0)
        throw error(errc::invalid_argument, "bad feature option '" + std::string(item) + "': expected key=value");
      m.kv_.emplace_back(std::string(item.substr(0, eq)), std::string(item.substr(eq + 1)));
      if (colon == std::string_view::npos) break;
      text.remove_prefix(colon + 1);
    }
    return m;
  }

  [[nodiscard]] const std::vector<std::pair<std::string, std::string>>& items() const noexcept { return kv_; }
  [[nodiscard]] bool empty() const noexcept { return kv_.empty(); }

  // Throws if a key is not one of `known` (names the feature and the accepted keys).
  void check_known(std::string_view feature, std::initializer_list<std::string_view> known) const {
    for (const auto& [k, v] : kv_) {
      bool ok = false;
      for (auto n : known) ok = ok || n == k;
      if (!ok) {
        std::string list;
        for (auto n : known) list += (list.empty() ? "" : ", ") + std::string(n);
        throw error(errc::invalid_argument, "unknown option '" + k + "' for feature " + std::string(feature) +
                                                (list.empty() ? " (it takes no options)" : " (known: " + list + ")"));
      }
    }
  }

  void get(std::string_view key, bool& out) const {
    if (const auto* v = find(key)) {
      if (*v == "true" || *v == "1") out = true;
      else if (*v == "false" || *v == "0") out = false;
      else throw error(errc::invalid_argument, "option " + std::string(key) + "=" + *v + ": expected true or false");
    }
  }
  void get(std::string_view key, double& out) const {
    if (const auto* v = find(key)) {
      try {
        std::size_t used = 0;
        out = std::stod(*v, &used);
        if (used != v->size()) throw std::invalid_argument("trailing");
      } catch (const std::exception&) {
        throw error(errc::invalid_argument, "option " + std::string(key) + "=" + *v + ": expected a number");
      }
      // stod reads "inf" and "nan": no option means anything with them (min_sse=inf makes every PSNR -inf).
      if (!std::isfinite(out))
        throw error(errc::invalid_argument, "option " + std::string(key) + "=" + *v + ": expected a finite number");
    }
  }
  void get(std::string_view key, std::uint32_t& out) const {
    if (const auto* v = find(key)) {
      const auto r = std::from_chars(v->data(), v->data() + v->size(), out);
      if (r.ec != std::errc{} || r.ptr != v->data() + v->size())
        throw error(errc::invalid_argument, "option " + std::string(key) + "=" + *v + ": expected an unsigned integer");
    }
  }

 private:
  [[nodiscard]] const std::string* find(std::string_view key) const {
    const std::string* hit = nullptr;
    for (const auto& [k, v] : kv_)
      if (k == key) hit = &v;  // the last one wins, as on libvmaf's command line
    return hit;
  }
  std::vector<std::pair<std::string, std::string>> kv_;
};

}  // namespace vqm
