// The starnet schedule format: what it accepts, what it refuses (naming the place), and the
// write → read round trip.
#include "schedule_test_support.hpp"

#include "../../core/expect_error.hpp"

#include <starnet/core/error.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace starnet::algorithms::schedule::testing {
namespace {

const std::string HEAD = R"({"format":"starnet-schedule","version":1,"collective":"allreduce","chunks":1,)";

Schedule on_k4(const std::string& text) { return parse_schedule(text, *topology::make_topology("complete:4")); }

TEST(ScheduleJson, ReadsNamesIndicesItemsAndOps) {
  const auto t = topology::make_topology("star:3");
  const auto s = parse_schedule(HEAD + R"("scratch":1,"steps":[[{"f":"123","t":1,"c":[[0,1],[0,0,"reduce"]]}]]})", *t);
  EXPECT_EQ(s.nodes(), 6U);
  EXPECT_EQ(s.slots(), 2U);
  EXPECT_EQ(s.transfers(), 1U);
  EXPECT_EQ(s.chunks_moved(), 1U);  // chunk 0 travels once for both items
  const auto recv = s.actions(1);
  ASSERT_EQ(recv.size(), 1U);
  EXPECT_EQ(recv[0].kind, Action::Kind::RECV);
  ASSERT_EQ(s.items(recv[0].items).size(), 2U);
  EXPECT_EQ(s.items(recv[0].items)[1].op, ItemOp::REDUCE);
}

TEST(ScheduleJson, StepOrderIsLocalThenSendThenReceive) {
  const auto s = on_k4(HEAD + R"("scratch":1,"steps":[[{"f":1,"t":0,"c":[0]},{"f":0,"t":1,"c":[0]},{"f":0,"t":0,"c":[[0,1]]}]]})");
  const auto a = s.actions(0);
  ASSERT_EQ(a.size(), 3U);
  EXPECT_EQ(a[0].kind, Action::Kind::LOCAL);
  EXPECT_EQ(a[1].kind, Action::Kind::SEND);
  EXPECT_EQ(a[2].kind, Action::Kind::RECV);
  EXPECT_EQ(s.local_operations(), 1U);
}

struct BadInput {
  const char* name;
  std::string text;
  std::vector<std::string> fragments;
};

TEST(ScheduleJson, RefusesBadInputsNamingThePlace) {
  const std::vector<BadInput> cases = {
      {"not JSON", "{\"format\":", {"not valid JSON at byte"}},
      {"an array", "[1,2]", {"the document", "expected a JSON object"}},
      {"wrong format", R"({"format":"x","version":1})", {"field \"format\"", "starnet-schedule"}},
      {"future version", R"({"format":"starnet-schedule","version":2})", {"field \"version\"", "expected 1"}},
      {"unknown collective", R"({"format":"starnet-schedule","version":1,"collective":"allsum","chunks":1,"steps":[]})",
       {"field \"collective\"", "\"allsum\"", "allgather"}},
      {"no chunks", R"({"format":"starnet-schedule","version":1,"collective":"allreduce","steps":[]})",
       {"field \"chunks\"", "missing"}},
      {"negative chunks", HEAD.substr(0, HEAD.size() - 11) + R"("chunks":-1,"steps":[]})", {"field \"chunks\"", "-1"}},
      {"unknown top field", HEAD + R"("stepz":[]})", {"field \"stepz\"", "unknown"}},
      // A bare value before an action once left the action without its program (found by fuzzing).
      {"a value for an action", HEAD + R"("programs":{"0":[1,{"c":[[1,0,"copy"]]}]}})",
       {"programs[\"0\"][0]", "expected an action (an object)"}},
      {"a value for a transfer", HEAD + R"("steps":[[7]]})", {"steps[0][0]", "expected a transfer (an object)"}},
      {"an array for a transfer", HEAD + R"("steps":[[[0],{"f":0,"t":1,"c":[0]}]]})",
       {"steps[0][0]", "expected an object, not an array"}},
      {"no steps", HEAD.substr(0, HEAD.size() - 1) + "}", {"neither \"steps\" nor \"programs\""}},
      {"both forms", HEAD + R"("steps":[],"programs":{}})", {"both \"steps\" and \"programs\""}},
      {"rooted without root",
       R"({"format":"starnet-schedule","version":1,"collective":"reduce","chunks":1,"steps":[]})",
       {"field \"root\"", "needs a root"}},
      {"transfer without to", HEAD + R"("steps":[[{"f":0,"c":[0]}]]})", {"steps[0][0]", "\"t\""}},
      {"unknown transfer field", HEAD + R"("steps":[[],[{"f":0,"t":1,"c":[0],"x":1}]]})",
       {"steps[1][0]", "unknown field \"x\""}},
      {"unknown op", HEAD + R"("steps":[[{"f":0,"t":1,"c":[0],"op":"add"}]]})", {"steps[0][0]", "\"add\"", "reduce"}},
      {"empty chunk list", HEAD + R"("steps":[[{"f":0,"t":1,"c":[]}]]})", {"steps[0][0]", "non-empty"}},
      {"negative chunk", HEAD + R"("steps":[[{"f":0,"t":1,"c":[-2]}]]})", {"steps[0][0]", "-2", "not a chunk"}},
      {"bad item", HEAD + R"("steps":[[{"f":0,"t":1,"c":[[0,1,2,3]]}]]})", {"steps[0][0]", "[src, dst]"}},
      {"node as a float", HEAD + R"("steps":[[{"f":0.5,"t":1,"c":[0]}]]})", {"steps[0][0]", "0.5", "not a node"}},
      {"action both send and recv", HEAD + R"("programs":{"0":[{"send":1,"recv":1,"c":[0]}]}})",
       {"programs[\"0\"][0]", "not both"}},
      {"send with op", HEAD + R"("programs":{"0":[{"send":1,"c":[0],"op":"reduce"}]}})",
       {"programs[\"0\"][0]", "a send has no \"op\""}},
      // Refused while parsing, before a value that deep exists (its message would recurse to print it).
      {"nested 200,000 deep", HEAD + R"("comment":)" + std::string(200'000, '[') + std::string(200'000, ']') + "}",
       {"nested deeper than 64 levels"}},
      {"nested 65 deep", HEAD + R"("steps":)" + std::string(64, '[') + std::string(64, ']') + "}",
       {"nested deeper than 64 levels"}},
      // A hostile value is quoted by its start only.
      {"huge bad node", HEAD + R"("steps":[[{"f":[)" + std::string(1000, '7') + R"(],"t":1,"c":[0]}]]})",
       {"77777777", "…"}},
      {"long bad node", HEAD + R"("steps":[[{"f":{"k":")" + std::string(1000, 'x') + R"("},"t":1,"c":[0]}]]})",
       {"steps[0][0]", "xxxxxxxx", "…", "not a node"}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    std::istringstream in(c.text);
    try {
      (void)ScheduleFile::read(in, "schedule \"bad.json\"");
      ADD_FAILURE() << "accepted";
    } catch (const ScheduleError& e) {
      EXPECT_THAT(e.what(), ::testing::HasSubstr("schedule \"bad.json\""));
      EXPECT_LT(std::string_view(e.what()).size(), 400U);
      for (const auto& f : c.fragments) EXPECT_THAT(e.what(), ::testing::HasSubstr(f));
    }
  }
}

TEST(ScheduleJson, RefusesWhatTheTopologyContradicts) {
  EXPECT_ERROR(ScheduleError, on_k4(HEAD + R"("steps":[[{"f":"zz","t":1,"c":[0]}]]})"), "node \"zz\"", "complete:4");
  EXPECT_ERROR(ScheduleError, on_k4(HEAD + R"("steps":[[{"f":7,"t":1,"c":[0]}]]})"), "index 7", "4 nodes");
  EXPECT_ERROR(ScheduleError, on_k4(HEAD + R"("nodes":5,"steps":[]})"), "\"nodes\" is 5", "4 nodes");
  EXPECT_ERROR(ScheduleError, on_k4(HEAD + R"("steps":[[{"f":0,"t":1,"c":[3]}]]})"), "chunk 3", "1 chunks");
  EXPECT_ERROR(ScheduleError, on_k4(HEAD + R"("steps":[[{"f":0,"t":1,"c":[0]},{"f":0,"t":1,"c":[0]}]]})"),
               "step 0 has two transfers from node 0 to node 1");
  EXPECT_ERROR(ScheduleError,
               on_k4(R"({"format":"starnet-schedule","version":1,"collective":"allgather","chunks":6,"steps":[]})"),
               "allgather with 6 chunks on 4 nodes", "multiple of 4");
  EXPECT_ERROR(ScheduleError, on_k4(HEAD + R"("programs":{"0":[{"send":1,"c":[0]}]}})"), "programs[\"0\"][0]",
               "never receives it");
  EXPECT_ERROR(ScheduleError, on_k4(HEAD + R"("programs":{"1":[{"recv":0,"c":[0]}]}})"), "programs[\"1\"][0]",
               "never sends it");
  EXPECT_ERROR(ScheduleError,
               on_k4(HEAD + R"("programs":{"0":[{"send":1,"c":[0]}],"1":[{"recv":0,"c":[0,0]}]}})"),
               "reads 2 chunks", "carries 1");
}

TEST(ScheduleJson, WritingThenReadingGivesTheSameSchedule) {
  const auto t = topology::make_topology("complete:4");
  for (const Collective c : ALL_COLLECTIVES) {
    const auto text = slurp(examples_dir() / (to_string(c) + ".json"));
    const Schedule a = parse_schedule(text, *t);
    const std::string written = write_schedule_json(a, *t, "complete:4");
    const Schedule b = parse_schedule(written, *t);
    ASSERT_EQ(a.nodes(), b.nodes());
    EXPECT_EQ(a.steps(), b.steps()) << to_string(c);
    EXPECT_EQ(a.transfers(), b.transfers()) << to_string(c);
    EXPECT_EQ(write_schedule_json(b, *t, "complete:4"), written) << to_string(c);
    for (std::uint32_t v = 0; v < a.nodes(); ++v) {
      ASSERT_EQ(a.actions(v).size(), b.actions(v).size());
      for (std::size_t i = 0; i < a.actions(v).size(); ++i) {
        const auto& x = a.actions(v)[i];
        const auto& y = b.actions(v)[i];
        EXPECT_EQ(x.kind, y.kind);
        EXPECT_EQ(x.key, y.key);
        EXPECT_EQ(x.peer, y.peer);
        EXPECT_TRUE(std::ranges::equal(a.items(x.items), b.items(y.items))) << to_string(c) << " node " << v;
      }
    }
  }
}

}  // namespace
}  // namespace starnet::algorithms::schedule::testing
