// tools/output.cpp: messages a terminal can show.
#include "../../tools/command.hpp"

#include <gtest/gtest.h>

namespace starnet::tools {
namespace {

TEST(Printable, KeepsTextAndUtf8AndEscapesEverythingElse) {
  EXPECT_EQ(printable("topology file \"a.dot\": fine\n"), "topology file \"a.dot\": fine\n");
  EXPECT_EQ(printable("α–β, ≥ 0, 🙂"), "α–β, ≥ 0, 🙂");
  EXPECT_EQ(printable(std::string("a\0b\tc\x1b[31m\x7f", 11)), "a\\x00b\\x09c\\x1b[31m\\x7f");
  // Not UTF-8: a lone continuation byte, a truncated sequence, an overlong '/', a surrogate, > U+10FFFF.
  EXPECT_EQ(printable("\x80"), "\\x80");
  EXPECT_EQ(printable("\xe2\x80"), "\\xe2\\x80");
  EXPECT_EQ(printable("\xc0\xaf"), "\\xc0\\xaf");
  EXPECT_EQ(printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");
  EXPECT_EQ(printable("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");
  EXPECT_EQ(printable("\xff\xfe name"), "\\xff\\xfe name");
}

TEST(Printable, AMessageStaysOneLine) {
  // A file name holding a newline must not forge a second "starnet: error:" line.
  EXPECT_EQ(printable("file \"a\nstarnet: error: forged\"", Lines::ONE), "file \"a\\nstarnet: error: forged\"");
  EXPECT_EQ(printable("a\nb"), "a\nb");
}

}  // namespace
}  // namespace starnet::tools
