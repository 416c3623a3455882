#include "../core/expect_error.hpp"

#include <starnet/core/error.hpp>
#include <starnet/topology/input.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace starnet {
namespace {

class ReadInput : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("starnet_input_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

TEST_F(ReadInput, ReadsARegularFileWhole) {
  const auto path = dir_ / "a.dot";
  const std::string text("graph { a -- b }\n\0tail", 23);
  std::ofstream(path, std::ios::binary) << text;
  EXPECT_EQ(read_input(path.string(), "file", "a graph"), text);
}

TEST_F(ReadInput, RefusesWhatIsNotARegularFileBeforeOpeningIt) {
  // A FIFO nobody writes: opening it would block for ever.
  const auto fifo = dir_ / "pipe.dot";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_ERROR(InputError, read_input(fifo.string(), "topology file \"pipe.dot\"", "a platform file"),
               "topology file \"pipe.dot\": is a FIFO (expected a platform file: a regular file, or - for standard input)");
  EXPECT_ERROR(InputError, read_input(dir_.string(), "input", "a platform file"), "input: is a directory");
  EXPECT_ERROR(InputError, read_input("/dev/zero", "input", "a platform file"), "input: is a device");
  EXPECT_ERROR(InputError, read_input((dir_ / "missing").string(), "input", "a platform file"),
               "input: does not exist (expected a platform file)");
}

TEST_F(ReadInput, RefusesAFileLargerThanTheLimitWithoutReadingIt) {
  const auto path = dir_ / "huge.json";
  {
    std::ofstream touch(path);
  }
  std::filesystem::resize_file(path, MAX_INPUT_BYTES + 1);  // sparse: no disk, no memory
  EXPECT_ERROR(InputError, read_input(path.string(), "schedule file \"huge.json\"", "a schedule"),
               "schedule file \"huge.json\": larger than the limit of 512 MiB");
}

TEST(CheckNesting, CountsDotBracesOutsideStringsAndComments) {
  const std::string ok = "graph {\n subgraph { subgraph { a } }\n}";
  EXPECT_NO_THROW(check_nesting(ok, Nesting::DOT, "g", /*limit=*/3));
  EXPECT_ERROR(InputError, check_nesting(ok, Nesting::DOT, "topology file \"g.dot\"", /*limit=*/2),
               "topology file \"g.dot\" line 2: nesting deeper than 2 levels of braces");
  const std::string braces = std::string(10, '{');
  const std::string hidden = "graph { a [label=\"" + braces + "\\\"" + braces + "\"]; /* " + braces + " */\n// " + braces +
                             "\n# " + braces + "\n b [label=<<b>" + braces + "</b>>] }";
  EXPECT_NO_THROW(check_nesting(hidden, Nesting::DOT, "g", /*limit=*/1));
}

TEST(CheckNesting, CountsXmlElementsOutsideCommentsCdataAndAttributes) {
  const std::string ok = "<?xml version=\"1.0\"?>\n<a x=\"<b>\"><!-- <c><c><c> --><b/><b><![CDATA[<d><d>]]></b></a>";
  EXPECT_NO_THROW(check_nesting(ok, Nesting::XML, "x", /*limit=*/2));
  EXPECT_ERROR(InputError, check_nesting(ok, Nesting::XML, "msccl file \"a.xml\"", /*limit=*/1),
               "msccl file \"a.xml\" line 2: nesting deeper than 1 levels of elements");
  std::string deep;
  for (int i = 0; i < 300'000; ++i) deep += "<x>";
  EXPECT_ERROR(InputError, check_nesting(deep, Nesting::XML, "deep.xml"), "deep.xml line 1: nesting deeper than 1000");
}

}  // namespace
}  // namespace starnet
