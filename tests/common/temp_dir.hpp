// A test fixture with a folder of its own under the system's temporary directory, made before each test
// and removed after it; write() puts bytes in a file there. The folder is named after the test suite and
// the process, so suites and concurrently running test processes (ctest -j) never share one.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

namespace vqm::test {

class temp_dir_test : public testing::Test {
 protected:
  void SetUp() override {
    const auto* info = testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           ("vqm_test_" + std::string(info->test_suite_name()) + "_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // Writes `bytes` to the file `name` in the folder and returns its path (a failed write fails the test).
  std::string write(const std::string& name, const std::string& bytes) {
    const auto p = (dir_ / name).string();
    std::ofstream f(p, std::ios::binary);
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    f.close();
    if (!f) ADD_FAILURE() << "could not write " << p;
    return p;
  }

  std::filesystem::path dir_;
};

}  // namespace vqm::test
