// Issue #12, "Do no harm": what the tool must never do to the machine it runs on, whatever the input or
// the destination. One test (at least) per item of the issue; each failed on the code before the fix.
// Items 1-5 here; 6 and 7 in test_do_no_harm_misc.cpp.
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vqm/io/y4m.hpp"
#include "vqm/picture.hpp"

#include "cli/harm_fixture.hpp"
#include "common/test_namespace.hpp"

namespace VQM_TEST_UNIT {

using namespace harm_test;
namespace fs = std::filesystem;
using vqm::test::asan;

// ---------------------------------------------------------------------------------------------------
// 1. -o never replaces what is at the path

TEST_F(harm, output_to_a_device_writes_through_and_keeps_the_device) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to mknod a copy of /dev/null (the test never touches /dev itself)";
  const auto null = path("null");
  ASSERT_EQ(::mknod(null.c_str(), S_IFCHR | 0666, ::makedev(1, 3)), 0) << std::strerror(errno);
  const auto r = vqm(J({"-r", ast_ref, "-d", ast_dis, "-o", null}));
  EXPECT_EQ(r.rc, 0) << r.err;
  struct stat st {};
  ASSERT_EQ(::lstat(null.c_str(), &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode)) << "the device was replaced";
  EXPECT_EQ(::major(st.st_rdev), 1u);
  EXPECT_EQ(::minor(st.st_rdev), 3u);
  EXPECT_EQ(temps(), std::vector<std::string>{});
}

TEST_F(harm, output_to_a_fifo_reaches_its_reader) {
  const auto fifo = path("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  std::string got;
  std::thread reader([&] { got = slurp(fifo); });
  const auto r = vqm(J({"-r", ast_ref, "-d", ast_dis, "-o", fifo}));
  reader.join();
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_TRUE(is_report(got)) << got.substr(0, 200);
  struct stat st {};
  ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode)) << "the FIFO was replaced";
}

TEST_F(harm, output_through_a_symlink_replaces_the_target_and_keeps_the_link_and_mode) {
  fs::create_directories(path("real"));
  const auto target = path("real/out.json"), link = path("link.json");
  spit(target, "previous");
  ASSERT_EQ(::chmod(target.c_str(), 0600), 0);
  fs::create_symlink("real/out.json", link);
  const auto r = vqm(J({"-r", ast_ref, "-d", ast_dis, "-o", link}));
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_TRUE(fs::is_symlink(link)) << "the link was replaced by a file";
  EXPECT_TRUE(is_report(slurp(target)));
  struct stat st {};
  ASSERT_EQ(::stat(target.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u) << "the old file's mode was not kept";
  // A dangling link is refused, and stays as it was.
  fs::create_symlink("real/missing.json", path("dangling.json"));
  expect_error(vqm(J({"-r", ast_ref, "-d", ast_dis, "-o", path("dangling.json")})),
               {path("dangling.json"), "symbolic link to a missing file"});
  EXPECT_FALSE(fs::exists(path("real/missing.json")));
}

// A link to /proc/self/fd/1 when stdout is a pipe (what /dev/stdout is): written through, not replaced.
TEST_F(harm, output_through_a_link_to_a_pipe_reaches_the_pipe) {
  fs::create_symlink("/proc/self/fd/1", path("stdout-link"));
  const std::string cmd = command(J({"-r", ast_ref, "-d", ast_dis, "-o", path("stdout-link")})) + " 2>" +
                          quote(path("stderr.txt")) + " | cat >" + quote(path("piped.json"));
  EXPECT_EQ(std::system(cmd.c_str()), 0) << slurp(path("stderr.txt"));
  EXPECT_TRUE(is_report(slurp(path("piped.json"))));
  EXPECT_TRUE(fs::is_symlink(path("stdout-link")));
  // /dev/stdout itself is stdout, whatever stdout is.
  const auto r = vqm(J({"-r", ast_ref, "-d", ast_dis, "-o", "/dev/stdout"}));
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_TRUE(is_report(r.out));
}

TEST_F(harm, an_existing_file_keeps_its_mode) {
  spit(path("out.json"), "previous");
  ASSERT_EQ(::chmod(path("out.json").c_str(), 0640), 0);
  const auto r = vqm(J({"-r", ast_ref, "-d", ast_dis, "-o", path("out.json")}));
  ASSERT_EQ(r.rc, 0) << r.err;
  struct stat st {};
  ASSERT_EQ(::stat(path("out.json").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
  EXPECT_TRUE(is_report(slurp(path("out.json"))));
  EXPECT_EQ(temps(), std::vector<std::string>{});
}

TEST_F(harm, unwritable_destination_fails_before_any_frame_is_read) {
  // The reference is a FIFO nobody writes: a run that got as far as the inputs would wait for ever.
  const auto fifo = path("in.y4m");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  const auto r = vqm(J({"-r", fifo, "-d", fifo, "-o", "/proc/vqm-no-such-entry"}), "", "timeout 20");
  expect_error(r, {"/proc/vqm-no-such-entry", "cannot write output"});
}

// The temp has an unpredictable name (no planted symlink can be followed), exists while the run does
// (so the folder's writability was proven early), and SIGTERM removes it.
TEST_F(harm, temp_is_unpredictable_and_removed_on_sigterm) {
  const auto fifo = path("in.y4m");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  const std::vector<std::string> args = {"-r", fifo, "-d", fifo, "-o", path("out.json"), "--json", "-q"};
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const int devnull = ::open("/dev/null", O_RDWR);
    ::dup2(devnull, 1);
    ::dup2(devnull, 2);
    std::vector<char*> argv{const_cast<char*>(VQM_CLI_PATH)};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(VQM_CLI_PATH, argv.data());
    ::_exit(127);
  }
  std::vector<std::string> seen;
  for (int i = 0; i < 200 && seen.empty(); ++i) {  // up to 10 s for the program to start
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    seen = temps();
  }
  ::kill(pid, SIGTERM);
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_EQ(seen.size(), 1u) << "no temp file while the run waits for its input";
  EXPECT_TRUE(seen[0].starts_with(".out.json.vqm-")) << seen[0];
  EXPECT_EQ(seen[0].find(std::to_string(pid)), std::string::npos) << "the temp name holds the pid: " << seen[0];
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << status;
  EXPECT_EQ(temps(), std::vector<std::string>{}) << "the temp outlived SIGTERM";
  EXPECT_FALSE(fs::exists(path("out.json")));
}

// ---------------------------------------------------------------------------------------------------
// 2. Samples above the declared bit depth

// rocket 10-bit with frame 1's Cb sample (x=5, y=3) set to 1280.
std::string with_sample_out_of_range(const std::string& y4m) {
  std::string b = y4m;
  const std::size_t header = b.find('\n') + 1, frame = 576 * 324 * 3 / 2 * 2;
  const std::size_t at = header + (6 + frame) + 6 + 576 * 324 * 2 + 2 * (3 * 288 + 5);
  b[at] = 0x00;
  b[at + 1] = 0x05;
  return b;
}

TEST_F(harm, samples_above_the_bit_depth_are_an_error_on_every_backend) {
  spit(path("over.y4m"), with_sample_out_of_range(slurp(r10_ref)));
  const std::vector<std::string> expect = {path("over.y4m") + ": frame 1: plane 1 (Cb) sample at x=5, y=3 is 1280",
                                           "10-bit maximum 1023"};
  expect_error(vqm(J({"-r", r10_ref, "-d", path("over.y4m"), "--backend", "cpu"})), expect);
#if VQM_CLI_HAS_VULKAN
  const auto gpu = vqm(J({"-r", r10_ref, "-d", path("over.y4m"), "--backend", "vulkan"}), "",
                       "ASAN_OPTIONS=detect_leaks=0");
  if (gpu.err.find("Vulkan is not available") == std::string::npos) expect_error(gpu, expect);
#endif
  // Raw input: the same check, naming -b.
  const auto y4m = with_sample_out_of_range(slurp(r10_ref));
  std::string raw;
  for (std::size_t p = y4m.find('\n') + 1; p < y4m.size(); p += 6 + 576 * 324 * 3) raw += y4m.substr(p + 6, 576 * 324 * 3);
  spit(path("over.yuv"), raw);
  expect_error(vqm(J({"-r", path("over.yuv"), "-d", path("over.yuv"), "-w", "576", "-h", "324", "-p", "420", "-b", "10"})),
               {path("over.yuv") + ": frame 1: plane 1 (Cb)", "is 1280", "check the bit depth"});
}

TEST(check_sample_range, finds_the_first_sample_above_the_depth) {
  vqm::picture p(vqm::picture_format{7, 5, vqm::chroma_format::yuv420, 12});
  EXPECT_NO_THROW(vqm::check_sample_range(p));
  p.row<std::uint16_t>(2, 1)[3] = 4096;
  const auto bad = vqm::find_sample_out_of_range(p);
  ASSERT_TRUE(bad);
  EXPECT_EQ(bad->plane, 2);
  EXPECT_EQ(bad->x, 3u);
  EXPECT_EQ(bad->y, 1u);
  EXPECT_EQ(bad->value, 4096u);
  try {
    vqm::check_sample_range(p);
    ADD_FAILURE() << "no error";
  } catch (const vqm::error& e) {
    EXPECT_EQ(e.code(), vqm::errc::bad_input);
    EXPECT_STREQ(e.what(), "plane 2 (Cr) sample at x=3, y=1 is 4096, above the 12-bit maximum 4095");
  }
  // 8 and 16 bits hold nothing out of range.
  vqm::picture p16(vqm::picture_format{4, 4, vqm::chroma_format::yuv444, 16});
  p16.row<std::uint16_t>(0, 0)[0] = 65535;
  EXPECT_FALSE(vqm::find_sample_out_of_range(p16));
}

// ---------------------------------------------------------------------------------------------------
// 3. Thread counts

TEST_F(harm, absurd_thread_counts_are_an_error_not_an_abort) {
  expect_error(vqm(J({"-r", ast_ref, "-d", ast_dis, "--threads", "100000"})), {"--threads 100000", "at most"});
}

TEST_F(harm, thread_creation_failure_is_an_error_not_an_abort) {
  if (asan) GTEST_SKIP() << "ulimit -v cannot be combined with AddressSanitizer's shadow memory";
  // 1000 threads' stacks (8 MiB each) do not fit in 1.5 GB of address space.
  const auto r = vqm(J({"-r", ast_ref, "-d", ast_dis, "--threads", "1000", "--backend", "cpu"}), "",
                     "ulimit -s 8192; ulimit -v 1500000;");
  expect_error(r, {"cannot start 1000 threads", "fewer threads"});
}

// ---------------------------------------------------------------------------------------------------
// 4. A header that claims more than the file holds

TEST_F(harm, huge_y4m_header_on_a_short_file_fails_without_allocating) {
  spit(path("big.y4m"), "YUV4MPEG2 W16384 H16384 C444p16\nFRAME\n");
  // 200 MB of address space: the 1.6 GB frame the header claims cannot be allocated.
  const std::string limit = asan ? "" : "ulimit -v 400000;";
  expect_error(vqm(J({"-r", path("big.y4m"), "-d", path("big.y4m")}), "", limit),
               {path("big.y4m"), "the header says 16384x16384 4:4:4 16-bit", "holds 6 bytes"});
}

TEST(y4m_stream, a_pipe_costs_only_what_it_sends) {
  // Through a pipe the size is unknown: the reader's memory grows with the data that arrives.
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const std::string bytes = "YUV4MPEG2 W16384 H16384 C444p16\nFRAME\n" + std::string(1000, '\x01');
  ASSERT_EQ(::write(fds[1], bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
  ::close(fds[1]);
  const std::string dev = "/proc/self/fd/" + std::to_string(fds[0]);
  vqm::io::y4m_reader r(dev);
  vqm::picture p;
  try {
    r.read(p);
    ADD_FAILURE() << "no error";
  } catch (const vqm::error& e) {
    EXPECT_NE(std::string(e.what()).find("truncated frame data (1000 of 1610612736 bytes"), std::string::npos) << e.what();
  }
  EXPECT_EQ(p.bytes().size(), 0u);
  ::close(fds[0]);
}

// ---------------------------------------------------------------------------------------------------
// 5. Write errors

TEST_F(harm, write_errors_are_reported) {
  auto r = vqm(J({"-r", ast_ref, "-d", ast_dis, "-o", "-"}), "/dev/full");
  expect_error(r, {"stdout", "No space left on device"});
  r = vqm({"-r", ast_ref, "-d", ast_dis, "--feature", "psnr", "--no_prediction"}, "/dev/full");  // the summary
  expect_error(r, {"stdout", "No space left on device"});
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to mknod a copy of /dev/full (the test never touches /dev itself)";
  const auto full = path("full");
  ASSERT_EQ(::mknod(full.c_str(), S_IFCHR | 0666, ::makedev(1, 7)), 0) << std::strerror(errno);
  r = vqm(J({"-r", ast_ref, "-d", ast_dis, "-o", full}));
  expect_error(r, {full, "No space left on device"});
  struct stat st {};
  ASSERT_EQ(::lstat(full.c_str(), &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
}

// A full file system: the error says so (not "No such file or directory"), the old file stays, no temp.
TEST_F(harm, full_file_system_is_reported_and_leaves_the_old_file) {
  const auto mnt = path("small");
  fs::create_directories(mnt);
  if (::mount("tmpfs", mnt.c_str(), "tmpfs", 0, "size=64k") != 0)
    GTEST_SKIP() << "cannot mount a small tmpfs here (" << std::strerror(errno) << "; needs root/CAP_SYS_ADMIN)";
  struct unmount {
    std::string at;
    ~unmount() { ::umount2(at.c_str(), MNT_DETACH); }
  } guard{mnt};
  spit(mnt + "/out.json", "previous");
  {
    const int fd = ::open((mnt + "/filler").c_str(), O_WRONLY | O_CREAT, 0644);
    ASSERT_GE(fd, 0);
    const std::string block(4096, 'x');
    while (::write(fd, block.data(), block.size()) > 0) {
    }
    ::close(fd);
  }
  const auto r = vqm(J({"-r", ast_ref, "-d", ast_dis, "-o", mnt + "/out.json"}));
  expect_error(r, {mnt + "/out.json", "No space left on device"});
  EXPECT_EQ(slurp(mnt + "/out.json"), "previous");
  std::vector<std::string> left;
  for (const auto& e : fs::directory_iterator(mnt)) left.push_back(e.path().filename().string());
  std::sort(left.begin(), left.end());
  EXPECT_EQ(left, (std::vector<std::string>{"filler", "out.json"}));
}

}  // namespace VQM_TEST_UNIT
