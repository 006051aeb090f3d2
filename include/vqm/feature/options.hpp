// Feature options as libvmaf declares them (its VmafOption table): each metric's options struct lists
// its options once, in a constexpr table(); parsing, range errors, help text and libvmaf's output-name
// suffix all come from that table (SPEC-vmaf A.2, A.6).
#pragma once

#include <algorithm>
#include <cmath>
#include <concepts>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "vqm/error.hpp"

namespace vqm {

// The "k=v:k=v" text after "feature=" on libvmaf's command line, as written: every pair, in order.
class option_map {
 public:
  option_map() = default;
  option_map(std::initializer_list<std::pair<std::string, std::string>> kv) : kv_(kv) {}

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
  // The last value given for `key` (the last one wins, as on libvmaf's command line), or null.
  [[nodiscard]] const std::string* find(std::string_view key) const noexcept {
    const std::string* hit = nullptr;
    for (const auto& [k, v] : kv_)
      if (k == key) hit = &v;
    return hit;
  }

 private:
  std::vector<std::pair<std::string, std::string>> kv_;
};

// One option of a feature (libvmaf's VmafOption). Its default is the options struct's member initializer.
// A non-empty alias makes it a feature parameter: a non-default value renames the feature's outputs. A
// feature parameter libvmaf gives no alias (cambi's topk, eotf) names itself: its alias is its name.
template <class O, class T>
struct option {
  std::string_view name;
  T O::*member;
  std::string_view help;
  std::string_view alias;
  T min{}, max{};  // numbers: the accepted range
};

template <class O>
[[nodiscard]] constexpr option<O, bool> flag(std::string_view name, bool O::*m, std::string_view help,
                                             std::string_view alias = {}) {
  return {name, m, help, alias};
}
template <class O, class T>
  requires(std::integral<T> || std::floating_point<T>)
[[nodiscard]] constexpr option<O, T> number(std::string_view name, T O::*m, T min, T max, std::string_view help,
                                            std::string_view alias = {}) {
  return {name, m, help, alias, min, max};
}

// A text option (libvmaf's VMAF_OPT_TYPE_STRING): any text, or exactly one of `choices` when there are
// some. Its default is the member initializer; a non-default value renames outputs verbatim ("_eotf_pq").
template <class O>
struct text_option {
  std::string_view name;
  std::string O::*member;
  std::string_view help;
  std::string_view alias;
  std::span<const std::string_view> choices;
};

template <class O>
[[nodiscard]] constexpr text_option<O> text(std::string_view name, std::string O::*m,
                                            std::span<const std::string_view> choices, std::string_view help,
                                            std::string_view alias = {}) {
  return {name, m, help, alias, choices};
}

// A feature's options struct: default-constructible (the defaults), naming its feature, with a static
// constexpr table() of option<> entries; a feature without options has no table().
template <class O>
concept OptionTable = std::default_initializable<O> && requires {
  { O::feature } -> std::convertible_to<std::string_view>;
} && (!requires { O::table(); } || requires { std::tuple_size<decltype(O::table())>::value; });

// One option, as text: for --help and the docs.
struct option_info {
  std::string name, alias, type, default_value, range, help;
};

namespace detail {

// "%g" of a double, as C prints it (1.0 -> "1", 1.37 -> "1.37").
[[nodiscard]] inline std::string format_g(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// libvmaf's option layer: a value that reads completely as a C float (trailing blanks allowed) is rewritten
// as "%g" of its binary32 value ("1.0" -> "1", "1.23456789" -> "1.23457"); other text is unchanged.
[[nodiscard]] inline std::string normalise(const std::string& text) {
  const char* s = text.c_str();
  char* end = nullptr;
  const float f = std::strtof(s, &end);
  if (end == s) return text;
  for (const char* p = end; *p; ++p)
    if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r' && *p != '\f' && *p != '\v') return text;
  return format_g(static_cast<double>(f));
}

template <class T>
[[nodiscard]] std::string option_text(const T& v) {
  if constexpr (std::same_as<T, std::string>) return v;
  else if constexpr (std::same_as<T, bool>) return v ? "true" : "false";
  else if constexpr (std::floating_point<T>) return format_g(static_cast<double>(v));
  else return std::to_string(v);
}

template <class T>
[[nodiscard]] std::string range_text(T min, T max) {
  if constexpr (std::same_as<T, bool>) return {};
  else if (max == std::numeric_limits<T>::max()) return ">= " + option_text(min);
  else return "[" + option_text(min) + ", " + option_text(max) + "]";
}

// One value by libvmaf's rules: bools are exactly "true" or "false"; numbers are normalised, then read with
// atof/strtol, rejected outside [min, max], non-finite, or 0 from text that does not start with '0'.
template <class O, class T>
[[nodiscard]] T parse_value(std::string_view feature, const option<O, T>& o, const std::string& text) {
  const auto fail = [&](const std::string& expected) {
    return error(errc::invalid_argument,
                 std::string(feature) + " option " + std::string(o.name) + "=" + text + ": expected " + expected);
  };
  if constexpr (std::same_as<T, bool>) {
    if (text == "true") return true;
    if (text == "false") return false;
    throw fail("true or false");
  } else if constexpr (std::floating_point<T>) {
    const std::string v = normalise(text);
    const double d = std::atof(v.c_str());
    const bool open = o.max == std::numeric_limits<T>::max();
    // !(min <= d <= max) rather than d < min || d > max: NaN compares false both ways and must not pass.
    if ((d == 0.0 && (v.empty() || v[0] != '0')) || !std::isfinite(d) || !(d >= o.min && d <= o.max))
      throw fail(open ? "a finite number " + range_text(o.min, o.max) : "a number in " + range_text(o.min, o.max));
    return static_cast<T>(d);
  } else {
    const std::string v = normalise(text);
    char* end = nullptr;
    const long long d = std::strtoll(v.c_str(), &end, 10);
    if (end == v.c_str() || *end != '\0' || d < static_cast<long long>(o.min) || d > static_cast<long long>(o.max))
      throw fail("an integer in " + range_text(o.min, o.max));
    return static_cast<T>(d);
  }
}

// A text value, normalised as libvmaf's option layer does every value ("2.50" -> "2.5"); one of the choices
// when the option has some.
template <class O>
[[nodiscard]] std::string parse_value(std::string_view feature, const text_option<O>& o, const std::string& text) {
  std::string v = normalise(text);
  if (o.choices.empty() || std::find(o.choices.begin(), o.choices.end(), v) != o.choices.end()) return v;
  std::string list;
  for (auto c : o.choices) {
    list += list.empty() ? "" : ", ";
    list += c;
  }
  throw error(errc::invalid_argument,
              std::string(feature) + " option " + std::string(o.name) + "=" + text + ": expected one of " + list);
}

// An entry's type and accepted range, as text.
template <class O, class T>
[[nodiscard]] std::pair<std::string, std::string> kind_text(const option<O, T>& e) {
  return {std::same_as<T, bool> ? "bool" : std::floating_point<T> ? "double" : "int", range_text(e.min, e.max)};
}
template <class O>
[[nodiscard]] std::pair<std::string, std::string> kind_text(const text_option<O>& e) {
  std::string range;
  for (auto c : e.choices) {
    range += range.empty() ? "" : ", ";
    range += c;
  }
  return {"string", range};
}

// The suffix from its parts (option name, text), in strcmp order of the names. Not a template: one sort for
// every option table, not one per table in every translation unit (compile time).
[[nodiscard]] inline std::string join_suffix(std::vector<std::pair<std::string_view, std::string>>& parts) {
  std::sort(parts.begin(), parts.end(),
            [](const std::pair<std::string_view, std::string>& a, const std::pair<std::string_view, std::string>& b) {
              return a.first < b.first;
            });
  std::string s;
  for (const auto& p : parts) s += p.second;
  return s;
}

}  // namespace detail

// Calls f(entry) for each entry of O's table, in table order.
template <OptionTable O, class F>
constexpr void for_each_option(F&& f) {
  if constexpr (requires { O::table(); }) std::apply([&](const auto&... e) { (f(e), ...); }, O::table());
}

// The options from the text a user gave; unknown keys and bad values are errors naming the feature, the
// option and what it accepts.
template <OptionTable O>
[[nodiscard]] O parse_options(const option_map& m) {
  const std::string_view feature = O::feature;
  for (const auto& item : m.items()) {
    const std::string& k = item.first;  // not a structured binding: Clang 14 cannot capture those
    bool known = false;
    for_each_option<O>([&](const auto& e) { known = known || e.name == k; });
    if (known) continue;
    std::string list;
    for_each_option<O>([&](const auto& e) { list += (list.empty() ? "" : ", ") + std::string(e.name); });
    throw error(errc::invalid_argument, "unknown option '" + k + "' for feature " + std::string(feature) +
                                            (list.empty() ? " (it takes no options)" : " (known: " + list + ")"));
  }
  O out;
  for_each_option<O>([&](const auto& e) {
    if (const auto* v = m.find(e.name)) out.*e.member = detail::parse_value(feature, e, *v);
  });
  return out;
}

// libvmaf's output-name suffix: one part per feature parameter whose value is not the default, ordered by
// strcmp of the option names: "_alias_%g" for numbers ("_alias_%d" for integers), "_alias_text" for text,
// "_alias" for bools.
template <OptionTable O>
[[nodiscard]] std::string options_suffix(const O& o) {
  const O def;
  std::vector<std::pair<std::string_view, std::string>> parts;
  for_each_option<O>([&](const auto& e) {
    if (e.alias.empty() || o.*e.member == def.*e.member) return;
    std::string part(1, '_');  // appended piece by piece (GCC 12 -O3 misreports "lit" + std::string as -Wrestrict)
    part += e.alias;
    if constexpr (!std::same_as<std::remove_cvref_t<decltype(o.*e.member)>, bool>) {
      part += '_';
      part += detail::option_text(o.*e.member);
    }
    parts.emplace_back(e.name, std::move(part));
  });
  return detail::join_suffix(parts);
}

// O's table as text, in table order.
template <OptionTable O>
[[nodiscard]] std::vector<option_info> describe_options() {
  std::vector<option_info> out;
  const O def;
  for_each_option<O>([&](const auto& e) {
    auto [type, range] = detail::kind_text(e);
    out.push_back({std::string(e.name), std::string(e.alias), std::move(type), detail::option_text(def.*e.member),
                   std::move(range), std::string(e.help)});
  });
  return out;
}

}  // namespace vqm
