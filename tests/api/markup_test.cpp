#include <starnet/api/markup.hpp>

#include <gtest/gtest.h>

#include <string>

namespace starnet::api {
namespace {

TEST(XmlEscape, EscapesTheFiveXmlCharacters) { EXPECT_EQ(xml_escape(R"(a<b>&"c'd)"), "a&lt;b&gt;&amp;&quot;c&apos;d"); }

TEST(Markup, ShortenCutsWholeCharactersAndPayloadTextReadsWords) {
  EXPECT_EQ(shorten("abcdef", 4), "abc…");
  EXPECT_EQ(shorten("abcd", 4), "abcd");
  EXPECT_EQ(shorten("ééééé", 3), "éé…") << "never inside a two-byte character";
  EXPECT_EQ(shorten("ab", 0), "");
  EXPECT_EQ(payload_text("hello"), "hello");
  EXPECT_EQ(payload_text(std::string("\x01\x01\0\0\0\0\0\0", 8)), "257");
  EXPECT_EQ(payload_text(std::string(9, '\0')), "9 bytes");
  EXPECT_EQ(payload_text(""), "0 bytes");
}

}  // namespace
}  // namespace starnet::api
