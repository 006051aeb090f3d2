// A small strict JSON (RFC 8259) DOM parser for the model files: no third-party code, no UB on any input.
// Numbers keep their source text (libvmaf normalises option values from the text) and their nearest
// double; object members keep file order (libvmaf reads collections in key order).
#pragma once

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "vqm/error.hpp"

namespace vqm::json {

namespace detail {
enum class number_status { ok, bad, out_of_range };

// The nearest double to the whole of `t` (decimal text). std::from_chars where the standard library has
// it for floating point (libstdc++ 11+); otherwise strtod on a copy ("C" locale number syntax assumed).
[[nodiscard]] inline number_status to_double(std::string_view t, double& out) noexcept {
#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L
  const auto r = std::from_chars(t.data(), t.data() + t.size(), out);
  if (r.ec == std::errc::result_out_of_range) return number_status::out_of_range;
  return r.ec == std::errc{} && r.ptr == t.data() + t.size() ? number_status::ok : number_status::bad;
#else
  if (t.empty() || t.size() > 1000 || std::isspace(static_cast<unsigned char>(t.front()))) return number_status::bad;
  char buf[1001];
  std::memcpy(buf, t.data(), t.size());
  buf[t.size()] = '\0';
  char* end = nullptr;
  errno = 0;
  out = std::strtod(buf, &end);
  if (end != buf + t.size()) return number_status::bad;
  if (errno == ERANGE && (out == HUGE_VAL || out == -HUGE_VAL)) return number_status::out_of_range;
  return number_status::ok;
#endif
}
}  // namespace detail

enum class kind : std::uint8_t { null, boolean, number, string, array, object };

[[nodiscard]] constexpr const char* to_string(kind k) noexcept {
  switch (k) {
    case kind::null: return "null";
    case kind::boolean: return "a boolean";
    case kind::number: return "a number";
    case kind::string: return "a string";
    case kind::array: return "an array";
    case kind::object: return "an object";
  }
  return "?";
}

class value {
 public:
  using member = std::pair<std::string, value>;

  [[nodiscard]] kind type() const noexcept { return kind_; }
  [[nodiscard]] bool is_null() const noexcept { return kind_ == kind::null; }
  [[nodiscard]] bool is_bool() const noexcept { return kind_ == kind::boolean; }
  [[nodiscard]] bool is_number() const noexcept { return kind_ == kind::number; }
  [[nodiscard]] bool is_string() const noexcept { return kind_ == kind::string; }
  [[nodiscard]] bool is_array() const noexcept { return kind_ == kind::array; }
  [[nodiscard]] bool is_object() const noexcept { return kind_ == kind::object; }

  [[nodiscard]] bool boolean() const noexcept { return bool_; }
  [[nodiscard]] double number() const noexcept { return number_; }
  // The string's decoded UTF-8 text, or a number's source text.
  [[nodiscard]] const std::string& text() const noexcept { return text_; }
  [[nodiscard]] const std::vector<value>& items() const noexcept { return items_; }
  [[nodiscard]] const std::vector<member>& members() const noexcept { return members_; }

  // The member named `key` (the last one when a key repeats), or nullptr (also for non-objects).
  [[nodiscard]] const value* find(std::string_view key) const noexcept {
    const value* hit = nullptr;
    for (const auto& [k, v] : members_)
      if (k == key) hit = &v;
    return hit;
  }

 private:
  friend class parser;
  kind kind_ = kind::null;
  bool bool_ = false;
  double number_ = 0.0;
  std::string text_;
  std::vector<value> items_;
  std::vector<member> members_;
};

class parser {
 public:
  static constexpr int max_depth = 128;

  parser(std::string_view text, std::string_view source) : s_(text), source_(source) {}

  [[nodiscard]] value parse() {
    value v;
    skip_ws();
    parse_value(v, 0);
    skip_ws();
    if (pos_ != s_.size()) fail("unexpected text after the JSON value");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const { fail_at(pos_, what); }
  [[noreturn]] void fail_at(std::size_t at, const std::string& what) const {
    std::size_t line = 1, col = 1;
    for (std::size_t i = 0; i < at && i < s_.size(); ++i) {
      if (s_[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    throw error(errc::bad_input, std::string(source_) + ":" + std::to_string(line) + ":" + std::to_string(col) +
                                     ": invalid JSON: " + what);
  }

  [[nodiscard]] bool eof() const noexcept { return pos_ >= s_.size(); }
  [[nodiscard]] char peek() const noexcept { return eof() ? '\0' : s_[pos_]; }

  void skip_ws() noexcept {
    while (!eof() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r')) ++pos_;
  }

  void expect_word(std::string_view w) {
    if (s_.substr(pos_, w.size()) != w) fail("unexpected character");
    pos_ += w.size();
  }

  void parse_value(value& v, int depth) {
    if (eof()) fail("unexpected end of input");
    switch (s_[pos_]) {
      case '{': return parse_object(v, depth + 1);
      case '[': return parse_array(v, depth + 1);
      case '"':
        v.kind_ = kind::string;
        return parse_string(v.text_);
      case 't':
        expect_word("true");
        v.kind_ = kind::boolean;
        v.bool_ = true;
        return;
      case 'f':
        expect_word("false");
        v.kind_ = kind::boolean;
        v.bool_ = false;
        return;
      case 'n':
        expect_word("null");
        v.kind_ = kind::null;
        return;
      default:
        if (s_[pos_] == '-' || (s_[pos_] >= '0' && s_[pos_] <= '9')) return parse_number(v);
        fail("unexpected character");
    }
  }

  void parse_object(value& v, int depth) {
    if (depth > max_depth) fail("nesting deeper than " + std::to_string(max_depth));
    v.kind_ = kind::object;
    ++pos_;
    skip_ws();
    if (peek() == '}') {
      ++pos_;
      return;
    }
    for (;;) {
      skip_ws();
      if (peek() != '"') fail(eof() ? "unexpected end of input" : "expected a member name in quotes");
      std::string key;
      parse_string(key);
      skip_ws();
      if (peek() != ':') fail("expected ':' after the member name");
      ++pos_;
      skip_ws();
      v.members_.emplace_back(std::move(key), value{});
      parse_value(v.members_.back().second, depth);
      skip_ws();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == '}') {
        ++pos_;
        return;
      }
      fail(eof() ? "unexpected end of input" : "expected ',' or '}'");
    }
  }

  void parse_array(value& v, int depth) {
    if (depth > max_depth) fail("nesting deeper than " + std::to_string(max_depth));
    v.kind_ = kind::array;
    ++pos_;
    skip_ws();
    if (peek() == ']') {
      ++pos_;
      return;
    }
    for (;;) {
      skip_ws();
      v.items_.emplace_back();
      parse_value(v.items_.back(), depth);
      skip_ws();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == ']') {
        ++pos_;
        return;
      }
      fail(eof() ? "unexpected end of input" : "expected ',' or ']'");
    }
  }

  [[nodiscard]] static int hex(char c) noexcept {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  std::uint32_t parse_hex4() {
    if (s_.size() - pos_ < 4) fail("truncated \\u escape");
    std::uint32_t u = 0;
    for (std::size_t i = 0; i < 4; ++i) {
      const int h = hex(s_[pos_ + i]);
      if (h < 0) fail("bad \\u escape");
      u = u * 16 + static_cast<std::uint32_t>(h);
    }
    pos_ += 4;
    return u;
  }

  static void put_utf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  // Validates one UTF-8 sequence starting at pos_ (a lead byte >= 0x80) and copies it.
  void copy_utf8(std::string& out) {
    const auto b0 = static_cast<unsigned char>(s_[pos_]);
    int n = 0;
    std::uint32_t cp = 0, min = 0;
    if (b0 >= 0xC2 && b0 <= 0xDF) {
      n = 1, cp = b0 & 0x1Fu, min = 0x80;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
      n = 2, cp = b0 & 0x0Fu, min = 0x800;
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
      n = 3, cp = b0 & 0x07u, min = 0x10000;
    } else {
      fail("invalid UTF-8");
    }
    if (s_.size() - pos_ <= static_cast<std::size_t>(n)) fail("invalid UTF-8");
    for (std::size_t i = 1; i <= static_cast<std::size_t>(n); ++i) {
      const auto b = static_cast<unsigned char>(s_[pos_ + i]);
      if ((b & 0xC0u) != 0x80u) fail("invalid UTF-8");
      cp = (cp << 6) | (b & 0x3Fu);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) fail("invalid UTF-8");
    out.append(s_.substr(pos_, static_cast<std::size_t>(n) + 1));
    pos_ += static_cast<std::size_t>(n) + 1;
  }

  void parse_string(std::string& out) {
    ++pos_;  // opening quote
    for (;;) {
      if (eof()) fail("unterminated string");
      const char c = s_[pos_];
      if (c == '"') {
        ++pos_;
        return;
      }
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in a string");
      if (static_cast<unsigned char>(c) >= 0x80) {
        copy_utf8(out);
        continue;
      }
      if (c != '\\') {
        out += c;
        ++pos_;
        continue;
      }
      ++pos_;
      if (eof()) fail("unterminated string");
      const char e = s_[pos_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          const std::size_t at = pos_ - 2;
          std::uint32_t cp = parse_hex4();
          if (cp >= 0xDC00 && cp <= 0xDFFF) fail_at(at, "unpaired surrogate in a \\u escape");
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (s_.substr(pos_, 2) != "\\u") fail_at(at, "unpaired surrogate in a \\u escape");
            pos_ += 2;
            const std::uint32_t lo = parse_hex4();
            if (lo < 0xDC00 || lo > 0xDFFF) fail_at(at, "unpaired surrogate in a \\u escape");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          }
          put_utf8(out, cp);
          break;
        }
        default: fail_at(pos_ - 2, "bad escape in a string");
      }
    }
  }

  void parse_number(value& v) {
    const std::size_t start = pos_;
    auto digits = [&] {
      const std::size_t b = pos_;
      while (!eof() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
      return pos_ - b;
    };
    if (peek() == '-') ++pos_;
    if (peek() == '0') {
      ++pos_;
    } else if (digits() == 0) {
      fail("bad number");
    }
    if (peek() == '.') {
      ++pos_;
      if (digits() == 0) fail("bad number");
    }
    if (peek() == 'e' || peek() == 'E') {
      ++pos_;
      if (peek() == '+' || peek() == '-') ++pos_;
      if (digits() == 0) fail("bad number");
    }
    const std::string_view t = s_.substr(start, pos_ - start);
    double d = 0.0;
    const auto st = detail::to_double(t, d);
    if (st == detail::number_status::out_of_range) fail_at(start, "number out of range");
    if (st != detail::number_status::ok) fail_at(start, "bad number");
    v.kind_ = kind::number;
    v.number_ = d;
    v.text_.assign(t);
  }

  std::string_view s_;
  std::string_view source_;
  std::size_t pos_ = 0;
};

// Parses one JSON document; errors are vqm::error(errc::bad_input, "SOURCE:LINE:COL: invalid JSON: ...").
[[nodiscard]] inline value parse(std::string_view text, std::string_view source = "JSON") {
  return parser(text, source).parse();
}

}  // namespace vqm::json
