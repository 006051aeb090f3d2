// libFuzzer harness: the CLI's argument handling (issue #25), end to end through run_cli. The input,
// split at NUL bytes, is argv. The program runs in a sandbox folder of its own: every '/' in an argument
// becomes '_', so no path can name anything outside the folder, which holds two small videos, a raw
// file and a model; whatever a run writes there is removed after it. Standard input and output are
// /dev/null; stderr stays (libFuzzer reports there). Any exit status is a correct answer; a crash, a
// sanitizer report, an uncaught exception or a hang is a bug.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

#include "app.hpp"

namespace {

namespace fs = std::filesystem;

const char* const fixed_files[] = {"r.y4m", "d.y4m", "d10.y4m", "r.yuv", "m.json"};

void put(const char* name, const std::string& bytes) {
  std::ofstream(name, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// Three 48x48 4:2:0 frames (VMAF's adm needs 33x33); `depth` 8 or 10 (two bytes a sample).
constexpr int side = 48, frame_samples = side * side * 3 / 2;
std::string tiny_y4m(unsigned seed, int depth) {
  std::string s = "YUV4MPEG2 W48 H48 F25:1 Ip A1:1 " + std::string(depth == 8 ? "C420jpeg\n" : "C420p10\n");
  for (int f = 0; f < 3; ++f) {
    s += "FRAME\n";
    for (int i = 0; i < frame_samples; ++i) {
      const unsigned v = (static_cast<unsigned>(i) * 7u + seed * 13u + static_cast<unsigned>(f) * 5u) & 0xffu;
      if (depth == 8) {
        s += static_cast<char>(v);
      } else {
        s += static_cast<char>((v << 2) & 0xffu);
        s += static_cast<char>(v >> 6);
      }
    }
  }
  return s;
}

fs::path make_sandbox() {
  std::string tmpl = (fs::temp_directory_path() / "vqm-fuzz-cli-XXXXXX").string();
  if (!::mkdtemp(tmpl.data()) || ::chdir(tmpl.c_str()) != 0) std::abort();
  put("r.y4m", tiny_y4m(1, 8));
  put("d.y4m", tiny_y4m(2, 8));
  put("d10.y4m", tiny_y4m(3, 10));
  put("r.yuv", std::string(3 * frame_samples, '\x40'));
  std::ifstream model(VQM_FUZZ_MODEL, std::ios::binary);
  std::ofstream("m.json", std::ios::binary) << model.rdbuf();
  const int null = ::open("/dev/null", O_RDWR);
  if (null < 0 || ::dup2(null, 0) < 0 || ::dup2(null, 1) < 0) std::abort();
  ::close(null);
  static fs::path folder = tmpl;
  std::atexit([] {
    std::error_code ec;
    fs::remove_all(folder, ec);
  });
  return folder;
}

// Removes what the last run left (reports, temps), keeping the fixed files.
void tidy(const fs::path& folder) {
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    const auto name = it->path().filename().string();
    bool keep = false;
    for (const char* f : fixed_files) keep = keep || name == f;
    if (!keep) fs::remove_all(it->path(), ec);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const fs::path folder = make_sandbox();
  std::vector<std::string> args{"vqm"};
  std::string arg;
  for (std::size_t i = 0; i < size && args.size() < 64; ++i) {
    const char c = static_cast<char>(data[i]);
    if (c == '\0') {
      args.push_back(arg);
      arg.clear();
    } else {
      arg += c == '/' ? '_' : c;
    }
  }
  if (!arg.empty() && args.size() < 64) args.push_back(arg);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  (void)vqm::cli::run_cli(static_cast<int>(args.size()), argv.data());
  tidy(folder);
  return 0;
}
