#include <starnet/api/markup.hpp>

#include <gtest/gtest.h>

namespace starnet::api {
namespace {

TEST(XmlEscape, EscapesTheFiveXmlCharacters) { EXPECT_EQ(xml_escape(R"(a<b>&"c'd)"), "a&lt;b&gt;&amp;&quot;c&apos;d"); }

}  // namespace
}  // namespace starnet::api
