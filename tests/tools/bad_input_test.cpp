// The bad-input battery: every subcommand of `starnet` given malformed and hostile files
// (DOT, GraphML, SimGrid, schedule JSON, MSCCL XML), special files (a directory, a FIFO, /dev/zero,
// /dev/null), out-of-range values, unwritable outputs and options that do not apply. Each is
// refused with exit code 2 (3 where the design says a runtime failure: a full disk) and one
// message that names the input and what was expected, quotes no raw byte, and leaves nothing
// behind (docs/limits.md).
#include "starnet_test_paths.hpp"
#include "../../tools/command.hpp"  // printable(): what a message may hold
#include "cli_runner.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace starnet::tools::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

/// Seconds a row may run: every refusal is immediate, so only a hang or an ignored option that
/// starts a long study reaches it (then `timeout` ends the run with exit code 124).
constexpr int TIME_LIMIT_S = 20;
/// The line CLI11's usage errors add after the message (tools/main.cpp).
constexpr std::string_view USAGE_HINT = "Run 'starnet --help' (or 'starnet SUBCOMMAND --help').";

/// What a row puts in its scratch folder before the run.
enum class Kind { REGULAR, FIFO, DIRECTORY, FULL_DEVICE };

struct Entry {
  std::string name;
  Kind kind = Kind::REGULAR;
  std::string text;  ///< the bytes of a regular file
};

Entry file(std::string name, std::string text) { return {std::move(name), Kind::REGULAR, std::move(text)}; }
Entry fifo(std::string name) { return {std::move(name), Kind::FIFO, {}}; }
Entry directory(std::string name) { return {std::move(name), Kind::DIRECTORY, {}}; }
/// A character device like /dev/full (1, 7): every write fails with ENOSPC. The rows make their
/// own in the scratch folder rather than name /dev/full: run as root, a writer that replaces its
/// target through a rename would replace the system's device node.
Entry full_device(std::string name) { return {std::move(name), Kind::FULL_DEVICE, {}}; }

/// One bad input. In args, names and says, {dir} is the row's scratch folder and {schedule} a good
/// schedule file (docs/examples/schedules/allreduce.json).
struct BadInput {
  std::string name;  ///< the test's name: Battery/BadInputTest.IsRefusedWithOneMessageNamingIt/NAME
  std::string args;  ///< a shell fragment after `starnet`
  std::vector<Entry> setup;
  int exit_code = 2;
  std::string names;  ///< the message names the input: a file, a spec, an option with its value
  std::string says;   ///< and what was wrong or expected ("" when naming it says it all)
};

void PrintTo(const BadInput& row, std::ostream* os) { *os << row.name << ": starnet " << row.args; }

std::string repeat(std::string_view unit, std::size_t count) {
  std::string text;
  text.reserve(unit.size() * count);
  for (std::size_t i = 0; i < count; ++i) text += unit;
  return text;
}

/// Billion laughs: nine levels of entities, each ten of the one below, 10^9 "lol"s if expanded.
std::string billion_laughs(std::string_view root) {
  std::string text = "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n  <!ENTITY lol0 \"lol\">\n";
  for (int i = 1; i <= 9; ++i) {
    text += "  <!ENTITY lol" + std::to_string(i) + " \"" + repeat("&lol" + std::to_string(i - 1) + ";", 10) + "\">\n";
  }
  return text + "]>\n" + std::string(root) + "\n";
}

/// A PNG header, a NUL, bytes that are not UTF-8 (0xff, an overlong '/', a surrogate), a
/// terminal escape that clears the screen and DEL: no message may quote any of it raw.
const std::string GARBAGE("\x89PNG\r\n\x1a\n\0\xff\xfe\x1b[2J\x7f\xc0\xaf\xed\xa0\x80", 21);

/// A starnet schedule on complete:4 with @p fields (chunks, steps) after the common ones.
std::string schedule(std::string_view fields) {
  return R"({"format":"starnet-schedule","version":1,"collective":"allreduce","topology":"complete:4",)" +
         std::string(fields) + "}";
}

/// A SimGrid platform of two hosts joined by one link.
std::string simgrid(std::string_view speed, std::string_view bandwidth, std::string_view latency) {
  return R"(<platform version="4.1"><zone id="z" routing="Full"><host id="a" speed=")" + std::string(speed) +
         R"("/><host id="b" speed="1Gf"/><link id="l" bandwidth=")" + std::string(bandwidth) + R"(" latency=")" +
         std::string(latency) + R"("/><route src="a" dst="b"><link_ctn id="l"/></route></zone></platform>)";
}

/// A GraphML graph of one link whose cost is @p cost.
std::string graphml_cost(std::string_view cost) {
  return R"(<graphml xmlns="http://graphml.graphdrawing.org/xmlns"><key id="c" for="edge" attr.name="cost" )"
         R"(attr.type="string"/><graph edgedefault="undirected"><node id="a"/><node id="b"/><edge source="a" )"
         R"(target="b"><data key="c">)" +
         std::string(cost) + "</data></edge></graph></graphml>";
}

/// A platform for the `steady` rows: processors a, b, c on a path.
const Entry NET_DOT = file("net.dot", "graph { a -- b; b -- c; }");

// The battery. Rows are grouped by what is bad; every subcommand appears (topo info, compare,
// export, draw; allreduce; broadcast; demo; worker; viz allreduce, broadcast; markov; reduce;
// steady scatter, gossip, reduce; montecarlo; whatif; schedule run, export; optimal).
// clang-format off
const std::vector<BadInput> BATTERY = {
    // DOT
    {"DotTruncated", "topo info {dir}/t.dot",
     {file("t.dot", "graph G { a -- b [cost=")},
     2, "t.dot\"", "malformed DOT"},
    {"DotEmpty", "topo info {dir}/e.dot", {file("e.dot", "")}, 2, "e.dot\"", "expected a GraphViz graph"},
    {"DotWrongRoot", "topo info {dir}/w.dot",
     {file("w.dot", "<graphml><graph/></graphml>")},
     2, "w.dot\"", "expected a GraphViz graph"},
    {"DotDeepSubgraphs", "topo info {dir}/deep.dot",
     {file("deep.dot", "graph{" + repeat("subgraph{", 100000))},
     2, "deep.dot\"", "nesting deeper than 1000"},
    {"DotDeepBracesInAProduct", "topo compare 'product:{dir}/deep.dot*ring:3'",
     {file("deep.dot", "graph{" + repeat("{", 100000))},
     2, "deep.dot\"", "nesting deeper than 1000"},
    {"DotBinaryGarbage", "topo info {dir}/g.dot", {file("g.dot", GARBAGE)}, 2, "g.dot\"", "malformed DOT"},
    {"DotControlBytesInAName", "topo info {dir}/c.dot",
     {file("c.dot", "graph { \"\x1b[31m\xff\xfe\" -- b }")},
     2, "\\x1b[31m\\xff\\xfe", "control character"},
    {"DotNewlineInANameForgesNoLine", "topo info {dir}/n.dot",
     {file("n.dot", "graph { \"a\nstarnet: error: forged\" -- b }")},
     2, "n.dot\"", "control character"},
    {"DotCostBeyondDouble", "topo info {dir}/c.dot",
     {file("c.dot", "graph { a -- b [cost=\"1e400\"] }")},
     2, "\"1e400\"", "cannot be held exactly"},
    {"DotCostDividesByZero", "topo info {dir}/c.dot",
     {file("c.dot", "graph { a -- b [cost=\"1/0\"] }")},
     2, "\"1/0\"", "zero denominator"},
    {"DotCostNegative", "topo info {dir}/c.dot",
     {file("c.dot", "graph { a -- b [cost=-1] }")},
     2, "cost -1", "must be > 0"},
    {"DotCostNan", "topo info {dir}/c.dot", {file("c.dot", "graph { a -- b [cost=nan] }")}, 2, "\"nan\"", "not finite"},
    {"DotHugeInteger", "topo export {dir}/c.dot --format dot",
     {file("c.dot", "graph { a -- b [cost=99999999999999999999999] }")},
     2, "99999999999999999999999", "cannot be held exactly"},
    {"DotKeywordNodeExportedAsDot", "topo export {dir}/k.dot --format dot -o {dir}/out.dot",
     {file("k.dot", "graph { \"node\" -- b }")},
     2, "node \"node\"", "a DOT keyword"},
    {"DotDirectory", "topo info {dir}/d.dot", {directory("d.dot")}, 2, "d.dot\"", "is a directory"},
    {"DotFifo", "topo info {dir}/p.dot", {fifo("p.dot")}, 2, "p.dot\"", "is a FIFO"},
    {"DevZeroAsTopology", "topo info /dev/zero", {}, 2, "/dev/zero", ""},
    {"DevNullAsTopology", "steady gossip --topology /dev/null --sources a --targets b", {}, 2, "/dev/null", ""},
    // GraphML
    {"GraphmlTruncated", "topo info {dir}/t.graphml",
     {file("t.graphml", "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\"><graph edgedefault=\"undirected\">"
      "<node id=\"a\"/>")},
     2, "t.graphml\"", "malformed GraphML"},
    {"GraphmlWrongRoot", "topo info {dir}/w.graphml",
     {file("w.graphml", "<?xml version=\"1.0\"?><html><body/></html>")},
     2, "w.graphml\"", "expected a <graphml> document"},
    {"GraphmlDeepNesting", "topo info {dir}/deep.graphml",
     {file("deep.graphml", "<graphml>" + repeat("<x>", 100000))},
     2, "deep.graphml\"", "nesting deeper than 1000"},
    {"GraphmlBillionLaughs", "topo info {dir}/lol.graphml",
     {file("lol.graphml", billion_laughs("<graphml><graph edgedefault=\"undirected\"><node id=\"&lol9;\"/></graph>"
      "</graphml>"))},
     2, "lol.graphml\"", "DOCTYPE"},
    {"GraphmlBinaryGarbage", "topo info {dir}/g.graphml",
     {file("g.graphml", GARBAGE)},
     2, "g.graphml\"", "malformed GraphML"},
    {"GraphmlEmpty", "topo draw {dir}/e.graphml -o {dir}/e.svg",
     {file("e.graphml", "")},
     2, "e.graphml\"", "malformed GraphML"},
    {"GraphmlCostBeyondDouble", "topo info {dir}/c.graphml",
     {file("c.graphml", graphml_cost("1e400"))},
     2, "\"1e400\"", "cannot be held exactly"},
    {"GraphmlCostNan", "topo info {dir}/c.graphml",
     {file("c.graphml", graphml_cost("nan"))},
     2, "\"nan\"", "not finite"},
    {"GraphmlCostDividesByZero", "topo info {dir}/c.graphml",
     {file("c.graphml", graphml_cost("1/0"))},
     2, "\"1/0\"", "zero denominator"},
    {"GraphmlControlCharacterEntity", "topo info {dir}/c.graphml",
     {file("c.graphml", "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\"><graph edgedefault=\"undirected\">"
      "<node id=\"a&#27;x\"/><node id=\"b\"/><edge source=\"a&#27;x\" target=\"b\"/></graph></graphml>")},
     2, "a\\x1bx", "control character"},
    {"GraphmlFifo", "steady scatter --topology {dir}/p.graphml --source a --targets b",
     {fifo("p.graphml")},
     2, "p.graphml\"", "is a FIFO"},
    // SimGrid platforms
    {"SimgridTruncated", "topo info {dir}/t.xml",
     {file("t.xml", "<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\"><host id=\"a\" speed=\"1Gf\"/>")},
     2, "t.xml\"", "malformed XML"},
    {"SimgridWrongRoot", "topo info {dir}/w.xml",
     {file("w.xml", "<?xml version=\"1.0\"?><graphml/>")},
     2, "w.xml\"", "<platform"},
    {"SimgridDeepNesting", "topo info {dir}/deep.xml",
     {file("deep.xml", "<platform version=\"4.1\">" + repeat("<zone>", 100000))},
     2, "deep.xml\"", "nesting deeper than 1000"},
    {"SimgridBillionLaughs", "topo export {dir}/lol.xml --format simgrid",
     {file("lol.xml", billion_laughs("<platform version=\"4.1\"><zone id=\"&lol9;\" routing=\"Full\"/></platform>"))},
     2, "lol.xml\"", "DOCTYPE"},
    {"SimgridBinaryHostName", "topo info {dir}/b.xml",
     {file("b.xml", "<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\"><host id=\"a\x1b\xff\" speed=\"1Gf\"/>"
      "<host id=\"b\" speed=\"1Gf\"/><link id=\"l\" bandwidth=\"1GBps\" latency=\"0\"/>"
      "<route src=\"a\x1b\xff\" dst=\"b\"><link_ctn id=\"l\"/></route></zone></platform>")},
     2, "a\\x1b\\xff", "control character"},
    {"SimgridSpeedBeyondDouble", "topo info {dir}/s.xml",
     {file("s.xml", simgrid("1e400f", "1GBps", "0"))},
     2, "\"1e400f\"", "cannot be held exactly"},
    {"SimgridSpeedNegative", "topo info {dir}/s.xml",
     {file("s.xml", simgrid("-1Gf", "1GBps", "0"))},
     2, "\"-1Gf\"", "must be > 0"},
    {"SimgridBandwidthDividesByZero", "topo info {dir}/s.xml",
     {file("s.xml", simgrid("1Gf", "1/0Bps", "0"))},
     2, "\"1/0Bps\"", ""},
    {"SimgridLatencyNan", "topo info {dir}/s.xml",
     {file("s.xml", simgrid("1Gf", "1GBps", "nans"))},
     2, "\"nans\"", "expected"},
    {"SimgridEmpty", "whatif --topologies {dir}/e.xml", {file("e.xml", "")}, 2, "e.xml\"", "expected"},
    {"SimgridFifo", "optimal --topology {dir}/p.xml", {fifo("p.xml")}, 2, "p.xml\"", "is a FIFO"},
    // Schedule JSON
    {"JsonTruncated", "schedule run {dir}/t.json",
     {file("t.json", schedule("\"chunks\":1,\"steps\":[[{\"f\":0,"))},
     2, "t.json\"", "not valid JSON"},
    {"JsonEmpty", "schedule run {dir}/e.json", {file("e.json", "")}, 2, "e.json\"", "not valid JSON"},
    {"JsonWrongRoot", "schedule run {dir}/w.json",
     {file("w.json", "[1,2,3]")},
     2, "w.json\"", "expected a JSON object"},
    {"JsonDeepArrays", "schedule run {dir}/deep.json",
     {file("deep.json", repeat("[", 100000))},
     2, "deep.json\"", "nested deeper than 64"},
    {"JsonDeepSteps", "schedule run {dir}/deep.json",
     {file("deep.json", schedule("\"chunks\":1,\"steps\":" + repeat("[", 100000) + repeat("]", 100000)))},
     2, "deep.json\"", "nested deeper than 64"},
    {"JsonBinaryGarbage", "schedule run {dir}/g.json", {file("g.json", GARBAGE)}, 2, "g.json\"", "not valid JSON"},
    {"JsonInvalidUtf8InAString", "schedule run {dir}/u.json",
     {file("u.json", schedule("\"comment\":\"\xc0\xaf\x1b[2J\",\"chunks\":1,\"steps\":[]"))},
     2, "u.json\"", "not valid JSON"},
    {"JsonChunksBeyondDouble", "schedule run {dir}/c.json",
     {file("c.json", schedule("\"chunks\":1e400,\"steps\":[]"))},
     2, "c.json\"", "overflow parsing '1e400'"},
    {"JsonChunksNegative", "schedule run {dir}/c.json",
     {file("c.json", schedule("\"chunks\":-1,\"steps\":[]"))},
     2, "\"chunks\": -1", "expected an integer in 0.."},
    {"JsonChunksHuge", "schedule run {dir}/c.json",
     {file("c.json", schedule("\"chunks\":99999999999999999999999,\"steps\":[]"))},
     2, "\"chunks\"", "a number beyond 64-bit integers (expected an integer in 0.."},
    {"JsonChunksNan", "schedule run {dir}/c.json",
     {file("c.json", schedule("\"chunks\":NaN,\"steps\":[]"))},
     2, "c.json\"", "not valid JSON"},
    {"JsonChunksGivenTwice", "schedule run {dir}/c.json",
     {file("c.json", schedule("\"chunks\":1,\"chunks\":2,\"steps\":[]"))},
     2, "\"chunks\"", ""},
    {"JsonKeyTwiceInATransfer", "schedule run {dir}/k.json",
     {file("k.json", schedule("\"chunks\":1,\"steps\":[[{\"f\":0,\"t\":1,\"t\":2,\"c\":[0]}]]"))},
     2, "the key \"t\" is given twice", ""},
    {"JsonNodeIndexHuge", "schedule run {dir}/n.json",
     {file("n.json", schedule("\"chunks\":1,\"steps\":[[{\"f\":99999999999999999999,\"t\":1,\"c\":[0]}]]"))},
     2, "steps[0][0]", "beyond 64-bit integers is not a node"},
    {"JsonVersionUnknown", "schedule run {dir}/v.json",
     {file("v.json", "{\"format\":\"starnet-schedule\",\"version\":2,"
                     "\"collective\":\"allreduce\",\"chunks\":1,\"steps\":[]}")},
     2, "\"version\"", "expected 1"},
    {"JsonDirectory", "schedule run {dir}/d.json", {directory("d.json")}, 2, "d.json\"", "is a directory"},
    {"JsonFifo", "schedule run {dir}/p.json", {fifo("p.json")}, 2, "p.json\"", "is a FIFO"},
    {"JsonDevZero", "schedule run /dev/zero", {}, 2, "\"/dev/zero\"", "is a device"},
    {"JsonDevNull", "schedule run /dev/null", {}, 2, "\"/dev/null\"", "is a device"},
    // Standard input: read up to the 512 MiB limit (docs/limits.md), then refused.
    {"JsonStdinDevZero", "schedule run - < /dev/zero", {}, 2, "\"-\"", "512 MiB"},
    {"JsonStdinEmpty", "schedule run - < /dev/null", {}, 2, "\"-\"", "not valid JSON"},
    {"BroadcastScheduleDeepNesting", "broadcast --all-to-all --topology star:3 --schedule {dir}/deep.json",
     {file("deep.json", repeat("[", 100000))},
     2, "deep.json\"", "nested deeper than 64"},
    {"BroadcastScheduleDirectory", "broadcast --all-to-all --topology star:3 --schedule {dir}/d.json",
     {directory("d.json")},
     2, "d.json\"", "is a directory"},
    {"VizScheduleTruncated", "viz broadcast --all-to-all --topology star:3 -o {dir}/v.html --schedule {dir}/t.json",
     {file("t.json", "{\"format\":\"starnet-schedule\",")},
     2, "t.json\"", "not valid JSON"},
    {"WhatifScheduleFifo", "whatif --topologies ring:4 --schedule {dir}/p.json",
     {fifo("p.json")},
     2, "p.json\"", "is a FIFO"},
    {"WhatifScheduleBillionLaughs", "whatif --topologies ring:4 --schedule {dir}/lol.xml",
     {file("lol.xml", billion_laughs("<algo name=\"&lol9;\" ngpus=\"4\"/>"))},
     2, "lol.xml\"", ""},
    // MSCCL XML
    {"MscclTruncated", "schedule run {dir}/t.xml",
     {file("t.xml", "<algo name=\"x\" ngpus=\"2\" coll=\"allreduce\" nchunksperloop=\"2\" inplace=\"1\">"
      "<gpu id=\"0\" i_chunks=\"2\" o_chunks=\"0\" s_chunks=\"0\"><tb id=\"0\" send=\"1\" recv=\"-1\" chan=\"0\">"
      "<step s=\"0\" type=\"s\"")},
     2, "t.xml\"", "not well-formed XML"},
    {"MscclWrongRoot", "schedule run {dir}/w.xml",
     {file("w.xml", "<?xml version=\"1.0\"?><platform version=\"4.1\"/>")},
     2, "w.xml\"", "<algo>"},
    {"MscclDeepNesting", "schedule run {dir}/deep.xml",
     {file("deep.xml", "<algo>" + repeat("<gpu>", 100000))},
     2, "deep.xml\"", "nesting deeper than 1000"},
    {"MscclBillionLaughs", "schedule run {dir}/lol.xml",
     {file("lol.xml", billion_laughs("<algo name=\"&lol9;\" ngpus=\"2\" coll=\"allreduce\" "
                                     "nchunksperloop=\"1\" inplace=\"1\"/>"))},
     2, "lol.xml\"", "DOCTYPE"},
    {"MscclExternalEntity", "schedule run {dir}/x.xml",
     {file("x.xml", "<?xml version=\"1.0\"?><!DOCTYPE algo [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>"
      "<algo name=\"&x;\" ngpus=\"2\"/>")},
     2, "x.xml\"", "DOCTYPE"},
    {"MscclBinaryAttribute", "schedule run {dir}/b.xml",
     {file("b.xml", "<algo name=\"x\" ngpus=\"\x01\xfe\"/>")},
     2, "ngpus=\"\\x01\\xfe\"", "expected an integer"},
    {"MscclNgpusHuge", "schedule run {dir}/n.xml",
     {file("n.xml", "<algo name=\"x\" ngpus=\"99999999999999999999\" coll=\"allreduce\" "
                    "nchunksperloop=\"1\" inplace=\"1\"/>")},
     2, "99999999999999999999", "expected an integer"},
    {"MscclEmpty", "schedule run {dir}/e.xml", {file("e.xml", "")}, 2, "e.xml\"", "not well-formed XML"},
    {"MscclBinaryGarbage", "schedule run {dir}/g.xml", {file("g.xml", GARBAGE)}, 2, "g.xml\"", "not well-formed XML"},
    // Topology specs and the command line itself
    {"StarZero", "topo info star:0", {}, 2, "star:0", "expected an integer 1..12"},
    {"StarNinetyNine", "allreduce --topology star:99", {}, 2, "star:99", "expected an integer 1..12"},
    {"StarNotANumber", "topo export star:x --format dot", {}, 2, "star:x", "expected an integer 1..12"},
    {"HypercubeNegative", "topo info hypercube:-1", {}, 2, "hypercube:-1", "expected an integer 1..16"},
    {"ProductOfOne", "topo info product:star:3", {}, 2, "product:star:3", "at least two factors"},
    {"SpecWithRawBytes", "topo info 'star:\x1b[31m\xff'", {}, 2, "star:\\x1b[31m\\xff", "expected an integer 1..12"},
    {"SpecWithNewlineForgesNoLine", "topo info 'star:\nstarnet: error: forged'",
     {},
     2, "forged", "expected an integer 1..12"},
    {"FileNameWithNewlineForgesNoLine", "schedule run '{dir}/a\nstarnet: error: forged.json'",
     {},
     2, "forged.json", "does not exist"},
    {"NotAStarGraph", "allreduce --topology hypercube:3", {}, 2, "hypercube:3", "expected star:N"},
    {"UnknownSubcommand", "nosuchcmd", {}, 2, "nosuchcmd", ""},
    {"TopoWithoutSubcommand", "topo", {}, 2, "starnet topo", "expected a subcommand: info, compare, export, draw"},
    {"SteadyWithoutSubcommand", "steady", {}, 2, "starnet steady", "scatter, gossip, reduce"},
    {"UnknownTopoSubcommand", "topo nosuch star:3", {}, 2, "nosuch", ""},
    {"ProgressUnknown", "--progress sometimes topo info star:3", {}, 2, "--progress sometimes", "auto, always or never"},
    {"CompareNothing", "topo compare", {}, 2, "SPEC", "--paper table1"},
    {"ExportFormatUnknown", "topo export star:3 --format xyz", {}, 2, "--format xyz", "dot, graphml or simgrid"},
    {"DrawTooManyNodes", "topo draw ring:300 -o {dir}/r.svg", {}, 2, "ring:300", "at most 256"},
    {"ExportOnRouters", "schedule export --algorithm bfs-tree --topology fattree:4 -o {dir}/f.json", {}, 2,
     "--topology fattree:4", "20 routers among its 36 nodes"},
    {"OptimalOnRouters", "optimal --topology dragonfly:2:2:1 --collective broadcast", {}, 2,
     "--topology dragonfly:2:2:1", "6 routers among its 18 nodes"},
    {"DemoTakesNoOption", "demo --workers 3", {}, 2, "--workers", ""},
    {"WorkerWithoutCoordinator", "worker --index 0", {}, 2, "--join HOST:PORT", "expected"},
    {"WorkerEndpointGarbage", "worker --connect garbage --index 0", {}, 2, "--connect: \"garbage\"", "expected tcp://"},
    // The key pipe is an argument the coordinator passes: one that is not open is bad input, not a runtime failure.
    {"WorkerKeyFdNotOpen", "worker --connect tcp://127.0.0.1:1 --index 0 --key-fd 999", {}, 2, "--key-fd 999", ""},
    {"WorkerIndexNegative", "worker --connect tcp://127.0.0.1:1 --index -1", {}, 2, "--index", "integer"},
    // Workers that join from other hosts: key files, --listen and --join
    {"KeyFileMissing", "worker --join 127.0.0.1:9 --key-file {dir}/none.key", {}, 2, "key file {dir}/none.key",
     "cannot be read"},
    {"KeyFileOpenToOthers", "worker --join 127.0.0.1:9 --key-file {dir}/open.key",
     {file("open.key", "secret-key: x\n")},
     2, "key file {dir}/open.key", "expected 0600"},
    {"KeyFileIsADirectory", "worker --join 127.0.0.1:9 --key-file {dir}/d", {directory("d")}, 2, "key file {dir}/d",
     "expected a small regular file"},
    {"KeyFileFromAFifo", "worker --join 127.0.0.1:9 --key-file {dir}/f", {fifo("f")}, 2, "key file {dir}/f",
     "expected a small regular file"},
    {"JoinWithoutKeyFile", "worker --join 127.0.0.1:9", {}, 2, "--join 127.0.0.1:9", "needs --key-file"},
    {"JoinPortZero", "worker --join 127.0.0.1:0 --key-file {dir}/k", {}, 2, "--join 127.0.0.1:0", "1..65535"},
    {"JoinNoPort", "worker --join 127.0.0.1 --key-file {dir}/k", {}, 2, "--join 127.0.0.1", "expected HOST:PORT"},
    {"JoinUnbracketedIpv6", "worker --join ::1:5 --key-file {dir}/k", {}, 2, "--join ::1:5", "brackets"},
    {"JoinAndConnect", "worker --join 127.0.0.1:9 --connect tcp://127.0.0.1:9 --key-file {dir}/k", {}, 2, "--join",
     "excludes"},
    {"ListenWithoutKeyFile", "allreduce --topology star:3 --engine zmq --listen 127.0.0.1:9", {}, 2,
     "--listen 127.0.0.1:9", "needs --key-file"},
    {"ListenWithPort", "allreduce --topology star:3 --engine zmq --listen 127.0.0.1:9 --port 7 --key-file {dir}/k", {},
     2, "--listen 127.0.0.1:9", "no --address or --port"},
    {"KeyFileWithoutListen", "allreduce --topology star:3 --engine zmq --processes --key-file {dir}/k", {}, 2,
     "--key-file {dir}/k", "applies only with --listen"},
    {"PeerTimeoutWithoutProcesses", "allreduce --topology star:3 --engine zmq --peer-timeout 9", {}, 2,
     "--peer-timeout", "applies only with --processes"},
    {"PeerTimeoutTooShort", "allreduce --topology star:3 --engine zmq --processes --peer-timeout 0.5", {}, 2,
     "--peer-timeout", "≥ 2"},
    {"ListenForSchedules", "schedule run {schedule} --engine zmq --listen 127.0.0.1:9 --key-file {dir}/k", {}, 2,
     "--listen", ""},
    {"WorkerPeerTimeoutZero", "worker --join 127.0.0.1:9 --key-file {dir}/k --peer-timeout 0", {}, 2, "--peer-timeout",
     "≥ 2"},
    {"KeygenOverAnExistingFile", "keygen -o {dir}/k", {file("k", "mine")}, 2, "key file {dir}/k", "already exists"},
    {"KeygenIntoNoFolder", "keygen -o {dir}/no/k", {}, 2, "key file {dir}/no/k", "cannot be made"},
    // Out-of-range and non-numeric values
    {"WorkersZero", "allreduce --topology star:3 --engine zmq --workers 0",
     {},
     2, "--workers 0", "expected a number of workers in 1..256"},
    {"WorkersThousands", "allreduce --topology star:8 --engine zmq --workers 3000",
     {},
     2, "--workers 3000", "expected a number of workers in 1..256"},
    {"WorkersNotANumber", "allreduce --topology star:3 --engine zmq --workers abc", {}, 2, "--workers", "integer"},
    {"AllreduceSeedNegative", "allreduce --topology star:3 --values random --seed -1", {}, 2, "--seed: \"-1\"", "expected an integer in 0.."},
    {"AllreduceSeedOverflows", "allreduce --topology star:3 --values random --seed 99999999999999999999999",
     {},
     2, "--seed: \"99999999999999999999999\"", "expected an integer in 0.."},
    {"AllreduceMaxNTooLarge", "allreduce --compare --max-n 1000", {}, 2, "--max-n 1000", "3..10"},
    {"AllreducePortOutOfRange", "allreduce --topology star:3 --engine zmq --processes --port 99999",
     {},
     2, "--port: \"99999\"", "expected an integer in 0..65535"},
    {"AllreducePortNegative", "allreduce --topology star:3 --engine zmq --processes --port -5", {}, 2, "--port: \"-5\"", "expected an integer in 0..65535"},
    {"AllreduceFaultExitNoSuchWorker", "allreduce --topology star:3 --engine zmq --processes --fault-exit 9:1",
     {},
     2, "--fault-exit 9:1", ""},
    {"AllreduceOpUnknown", "allreduce --topology star:3 --op avg", {}, 2, "--op", "expected sum, min, max or xor"},
    {"BroadcastWithoutAllToAll", "broadcast --topology star:3", {}, 2, "--all-to-all", "required"},
    {"VizStarTooLarge", "viz allreduce --topology star:6 -o {dir}/v.html", {}, 2, "star:6", "star:2..star:5"},
    {"MarkovNZero", "markov --n 0", {}, 2, "--n: \"0\"", "1..20000"},
    {"MarkovNOverflows", "markov --n 99999999999999999999", {}, 2, "--n: \"99999999999999999999\"", "1..20000"},
    {"MarkovNNotANumber", "markov --n abc", {}, 2, "--n: \"abc\"", "integer"},
    {"MarkovRateNegative", "markov --n 3 --rate -1", {}, 2, "--rate -1", "> 0"},
    {"MarkovRateDividesByZero", "markov --n 3 --rate 1/0", {}, 2, "--rate", "zero denominator"},
    {"MarkovRateNan", "markov --n 3 --rate nan", {}, 2, "--rate nan", "not a number"},
    {"MarkovRateBeyondDouble", "markov --n 3 --rate 1e400", {}, 2, "--rate", "1e400"},
    {"ReduceNZero", "reduce --algo greedy --n 0 --d 1 --c 1", {}, 2, "--n 0", "expected n ≥ 1"},
    {"ReduceDNegative", "reduce --algo greedy --n 10 --d -1 --c 1", {}, 2, "--d -1", "≥ 0"},
    {"ReduceDDividesByZero", "reduce --algo greedy --n 10 --d 1/0 --c 1", {}, 2, "--d", "zero denominator"},
    {"ReduceCBeyondDouble", "reduce --algo greedy --n 10 --d 1 --c 1e400", {}, 2, "--c", "1e400"},
    {"ReduceKZero", "reduce --algo greedy-transfers --n 10 --d 1 --c 1 --k 0", {}, 2, "--k 0", "≥ 1"},
    {"ReduceStudyUnknown", "reduce --study figure3", {}, 2, "figure3", "expected figure2"},
    {"ReduceMaxNTooLarge", "reduce --study figure2 --max-n 99999999999", {}, 2, "--max-n", ""},
    {"SteadySourceUnknown", "steady scatter --topology {dir}/net.dot --source z --targets b",
     {NET_DOT},
     2, "\"z\"", "does not exist"},
    {"SteadyTargetTwice", "steady scatter --topology {dir}/net.dot --source a --targets b,b",
     {NET_DOT},
     2, "\"b\"", "twice"},
    {"SteadyPeriodZero", "steady gossip --topology {dir}/net.dot --sources a --targets b --period 0",
     {NET_DOT},
     2, "--period 0", "> 0"},
    {"SteadyPeriodNan", "steady gossip --topology {dir}/net.dot --sources a --targets b --period nan",
     {NET_DOT},
     2, "--period nan", "not a number"},
    {"SteadyEmulateNegative", "steady scatter --topology {dir}/net.dot --source a --targets b --emulate -1",
     {NET_DOT},
     2, "--emulate -1", "> 0"},
    {"SteadyIterationLimitNegative",
     "steady scatter --topology {dir}/net.dot --source a --targets b --iteration-limit -1",
     {NET_DOT},
     2, "--iteration-limit: \"-1\"", "expected an integer in 0.."},
    {"SteadyMessageSizeZero", "steady reduce --topology {dir}/net.dot --participants a,b --target c --message-size 0",
     {NET_DOT},
     2, "--message-size 0", "> 0"},
    {"SteadyTaskWorkZero", "steady reduce --topology {dir}/net.dot --participants a,b --target c --task-work 0",
     {NET_DOT},
     2, "--task-work 0", "> 0"},
    {"MontecarloNZero", "montecarlo --n 0 --runs 10", {}, 2, "--n 0", "1..65535"},
    {"MontecarloRunsZero", "montecarlo --runs 0", {}, 2, "--runs 0", "at least one"},
    {"MontecarloCvNan", "montecarlo --runs 10 --cv nan", {}, 2, "--cv: \"nan\"", "expected a finite number"},
    {"MontecarloCvBeyondDouble", "montecarlo --runs 10 --cv 1e400", {}, 2, "--cv: \"1e400\"", "expected a finite number"},
    {"MontecarloMuDInfinite", "montecarlo --runs 10 --mu-d inf", {}, 2, "--mu-d: \"inf\"", "expected a finite number"},
    {"MontecarloSeedNegative", "montecarlo --runs 10 --seed -1", {}, 2, "--seed: \"-1\"", "expected an integer in 0.."},
    {"MontecarloThreadsHuge", "montecarlo --runs 10 --threads 100000", {}, 2, "--threads: \"100000\"", "expected an integer in 0..1024"},
    {"AllreduceThreadsNegative", "allreduce --topology star:4 --threads -1", {}, 2, "--threads: \"-1\"", "expected an integer in 0..1024"},
    {"AllreduceThreadsWord", "allreduce --topology star:4 --threads x", {}, 2, "--threads: \"x\"", "expected an integer in 0..1024"},
    {"AllreduceThreadsWithZmq", "allreduce --topology star:4 --engine zmq --threads 2", {}, 2, "--threads 2", "applies to the local engine"},
    {"MontecarloDistUnknown", "montecarlo --runs 10 --dist cauchy", {}, 2, "\"cauchy\"", "expected one of"},
    {"MontecarloAlgosEmptyItem", "montecarlo --runs 10 --algos ,", {}, 2, "--algos", ""},
    {"WhatifNoTopologies", "whatif", {}, 2, "--topologies", "no topology given"},
    {"WhatifMessageSizeZero", "whatif --topologies ring:4 --costs topology --message-size 0",
     {},
     2, "--message-size 0", "> 0"},
    {"WhatifFailRandomAboveOne", "whatif --topologies ring:4 --fail-random 1.5",
     {},
     2, "--fail-random 1.5", "0 ≤ P ≤ 1"},
    {"WhatifPortsZero", "whatif --topologies ring:4 --ports 0", {}, 2, "--ports 0", "1..1024"},
    {"WhatifRootNotANode", "whatif --topologies ring:4 --root 99", {}, 2, "--root 99", "index 0..3"},
    {"WhatifSeedNegative", "whatif --topologies ring:4 --costs random --seed -1", {}, 2, "--seed -1", "expected an integer in 0.."},
    {"WhatifOptimalTimeLimitNegative", "whatif --topologies ring:4 --optimal --optimal-time-limit -1",
     {},
     2, "--optimal-time-limit -1", "expected a finite number ≥ 0"},
    {"OptimalNoTopology", "optimal", {}, 2, "--topology", "required"},
    {"OptimalTooManyNodes", "optimal --topology ring:300", {}, 2, "ring:300", "256"},
    {"OptimalPortsZero", "optimal --topology ring:4 --ports 0", {}, 2, "--ports 0", "1..1024"},
    {"OptimalTimeLimitNegative", "optimal --topology ring:4 --time-limit -1", {}, 2, "--time-limit: \"-1\"", "expected a finite number ≥ 0"},
    {"OptimalTimeLimitNan", "optimal --topology ring:4 --time-limit nan", {}, 2, "--time-limit: \"nan\"", "expected a finite number"},
    {"ScheduleChunkSizeDividesByZero", "schedule run {schedule} --costs topology --chunk-size 1/0",
     {},
     2, "--chunk-size", "zero denominator"},
    {"ScheduleSeedNegative", "schedule run {schedule} --seed -1", {}, 2, "--seed: \"-1\"", "expected an integer in 0.."},
    {"SchedulePortsHuge", "schedule run {schedule} --ports 99999", {}, 2, "--ports 99999", "1..1024"},
    {"ScheduleMissingFile", "schedule run {dir}/none.json", {}, 2, "none.json\"", "does not exist"},
    {"ExportRootNotANode",
     "schedule export --algorithm bfs-tree --topology ring:4 --collective broadcast --root 9 -o {dir}/s.json",
     {},
     2, "--root 9", "not a node"},
    {"ExportStarBroadcastTooLarge", "schedule export --algorithm star-broadcast --topology star:8 -o {dir}/s.json",
     {},
     2, "star:8", "star:7"},
    // Options that do not apply: refused, never ignored
    {"WorkersWithLocalEngine", "allreduce --topology star:3 --workers 2", {}, 2, "--workers 2", "--engine zmq"},
    {"ProcessesWithLocalEngine", "allreduce --topology star:3 --processes", {}, 2, "--processes", "zmq"},
    {"AllreduceSeedWithRankValues", "allreduce --topology star:3 --seed 5", {}, 2, "--seed", "--values random"},
    {"AllreduceMaxNWithoutCompare", "allreduce --topology star:3 --max-n 5", {}, 2, "--max-n", "--compare"},
    {"AllreduceTopologyAndCompare", "allreduce --topology star:3 --compare", {}, 2, "--compare", "--topology"},
    {"AllreduceFaultExitWithoutProcesses", "allreduce --topology star:3 --fault-exit 1:2",
     {},
     2, "--fault-exit", "--processes"},
    {"AllreduceTraceFormatWithoutTrace", "allreduce --topology star:3 --trace-format chrome",
     {},
     2, "--trace-format", "--trace"},
    {"ReduceKWithGreedy", "reduce --algo greedy --n 10 --d 1 --c 1 --k 3", {}, 2, "--k", "greedy-transfers"},
    {"ReduceMaxNWithoutStudy", "reduce --algo greedy --n 10 --d 1 --c 1 --max-n 5", {}, 2, "--max-n", "--study"},
    {"ReduceCsvWithoutStudy", "reduce --algo greedy --n 10 --d 1 --c 1 --csv {dir}/r.csv", {}, 2, "--csv", "--study"},
    {"ReduceStudyWithN", "reduce --study figure2 --max-n 10 --n 5", {}, 2, "--n", "--study"},
    {"SteadyGanttWithoutEmulate", "steady scatter --topology {dir}/net.dot --source a --targets b --gantt {dir}/g.svg",
     {NET_DOT},
     2, "--gantt", "--emulate"},
    {"SteadySwimlaneWithoutEmulate",
     "steady scatter --topology {dir}/net.dot --source a --targets b --swimlane {dir}/s.svg",
     {NET_DOT},
     2, "--swimlane", "--emulate"},
    {"AllreduceCompareWithSwimlane", "allreduce --compare --max-n 4 --swimlane {dir}/s.svg", {}, 2, "--swimlane",
     "--topology"},
    {"ReduceStudyWithSwimlane", "reduce --study figure2 --max-n 10 --swimlane {dir}/s.svg", {}, 2, "--swimlane",
     "--study"},
    {"SteadyTraceFormatWithoutTrace",
     "steady scatter --topology {dir}/net.dot --source a --targets b --trace-format chrome",
     {NET_DOT},
     2, "--trace-format", "--trace"},
    {"MontecarloPointsWithoutStudy", "montecarlo --runs 10 --points 5", {}, 2, "--points", "--study"},
    {"MontecarloRunsWithWorstCase", "montecarlo --worst-case --runs 5", {}, 2, "--runs", "--worst-case"},
    {"MontecarloTraceFormatWithoutTrace", "montecarlo --runs 10 --trace-format chrome",
     {},
     2, "--trace-format", "--trace"},
    {"WhatifMessageSizeWithUnitCosts", "whatif --topologies ring:4 --message-size 4",
     {},
     2, "--message-size 4", "topology costs only"},
    {"WhatifSeedWithoutRandomness", "whatif --topologies ring:4 --seed 7", {}, 2, "--seed", "random"},
    {"WhatifOptimalTimeLimitWithoutOptimal", "whatif --topologies ring:4 --optimal-time-limit 5",
     {},
     2, "--optimal-time-limit", "--optimal"},
    {"OptimalRootWithoutBroadcast", "optimal --topology ring:4 --root 2", {}, 2, "--root", "broadcast"},
    {"OptimalMaxStepsWithSat", "optimal --topology ring:4 --max-steps 3", {}, 2, "--max-steps", "--method uniform"},
    {"OptimalBeamWidthWithSat", "optimal --topology ring:4 --beam-width 3", {}, 2, "--beam-width", "--method uniform"},
    {"OptimalCsvWithoutStudy", "optimal --topology ring:4 --csv {dir}/c.csv", {}, 2, "--csv", "--study"},
    {"OptimalStudyWithTopology", "optimal --study star --topology ring:4", {}, 2, "--topology", "--study"},
    {"OptimalProofWithUniform", "optimal --topology ring:4 --method uniform --proof {dir}/p",
     {},
     2, "--proof", "--method sat"},
    {"ScheduleChunkSizeWithUnitCosts", "schedule run {schedule} --chunk-size 4",
     {},
     2, "--chunk-size 4", "--costs topology"},
    {"ScheduleSeedWithIndexValues", "schedule run {schedule} --values index --seed 3",
     {},
     2, "--seed", "--values random"},
    {"ScheduleWorkersWithLocalEngine", "schedule run {schedule} --workers 3", {}, 2, "--workers 3", "--engine zmq"},
    {"ScheduleProcesses", "schedule run {schedule} --engine zmq --processes", {}, 2, "--processes", ""},
    {"SchedulePortWithLocalEngine", "schedule run {schedule} --port 4", {}, 2, "--port", ""},
    {"ScheduleAddressWithoutProcesses", "schedule run {schedule} --engine zmq --address ::1",
     {},
     2, "--address", ""},
    {"ExportRootWithRing", "schedule export --algorithm ring --topology ring:4 --root 2 -o {dir}/s.json",
     {},
     2, "--root", ""},
    // Unwritable outputs, and outputs a failed run must not leave behind
    {"ExportOutputMissingFolder", "topo export ring:4 --format dot -o {dir}/no/r.dot",
     {},
     2, "no/r.dot\"", "expected a writable path"},
    {"ExportOutputDirectory", "topo export ring:4 --format dot -o {dir}/out",
     {directory("out")},
     2, "out\"", "is a directory"},
    {"ExportOutputEmpty", "topo export ring:4 --format graphml -o ''", {}, 2, "\"\"", ""},
    {"DrawOutputPdf", "topo draw ring:4 -o {dir}/r.pdf", {}, 2, "r.pdf", ".svg"},
    {"VizOutputDirectory", "viz allreduce --topology star:3 -o {dir}/out",
     {directory("out")},
     2, "out\"", "is a directory"},
    {"VizOutputMissingFolder", "viz broadcast --all-to-all --topology star:3 -o {dir}/no/v.html",
     {},
     2, "no/v.html\"", "expected a writable path"},
    {"ScheduleExportOutputDirectory", "schedule export --algorithm ring --topology ring:4 -o {dir}/out",
     {directory("out")},
     2, "out\"", "is a directory"},
    {"ScheduleExportWithoutOutput", "schedule export --algorithm star-allreduce --topology star:4",
     {},
     2, "-o FILE", "required"},
    {"OptimalOutputDirectory", "optimal --topology ring:4 -o {dir}/out",
     {directory("out")},
     2, "out\"", "is a directory"},
    {"OptimalProofIsAFile", "optimal --topology ring:4 --proof {dir}/f.txt",
     {file("f.txt", "x")},
     2, "--proof", "directory"},
    {"AllreduceTraceIntoDirectory", "allreduce --topology star:3 --trace {dir}/out",
     {directory("out")},
     2, "out\"", "is a directory"},
    {"BroadcastGanttMissingFolder", "broadcast --all-to-all --topology star:3 --gantt {dir}/no/g.svg",
     {},
     2, "no/g.svg\"", "expected a writable path"},
    {"AllreduceGanttPdf", "allreduce --topology star:3 --gantt {dir}/g.pdf", {}, 2, "g.pdf", ".svg"},
    {"ReduceGanttPdf", "reduce --algo greedy --n 5 --d 1 --c 1 --gantt {dir}/g.pdf", {}, 2, "g.pdf", ".svg"},
    {"ScheduleGanttPdf", "schedule run {schedule} --gantt {dir}/g.pdf", {}, 2, "g.pdf", ".svg"},
    {"AllreduceSwimlanePdf", "allreduce --topology star:3 --swimlane {dir}/s.pdf", {}, 2, "s.pdf", ".svg"},
    {"ScheduleSwimlaneMissingFolder", "schedule run {schedule} --swimlane {dir}/no/s.svg", {}, 2, "no/s.svg\"",
     "expected a writable path"},
    {"ReducePlotPdf", "reduce --study figure2 --max-n 10 --plot {dir}/r.pdf", {}, 2, "--plot", ".svg or .png"},
    {"WhatifCsvIntoDirectory", "whatif --topologies ring:4 --csv {dir}/out",
     {directory("out")},
     2, "out\"", "is a directory"},
    {"AllreduceTraceKeptWhenGanttFails", "allreduce --topology star:3 --trace {dir}/t.jsonl --gantt {dir}/no/g.svg",
     {},
     2, "no/g.svg\"", "expected a writable path"},
    {"ScheduleTraceKeptWhenGanttFails", "schedule run {schedule} --trace {dir}/t.jsonl --gantt {dir}/no/g.svg",
     {},
     2, "no/g.svg\"", "expected a writable path"},
    {"ReduceCsvKeptWhenPlotFails", "reduce --study figure2 --max-n 10 --csv {dir}/r.csv --plot {dir}/no/r.svg",
     {},
     2, "no/r.", "expected a writable path"},
    {"WhatifCsvKeptWhenPlotFails", "whatif --topologies ring:4 --csv {dir}/w.csv --plot {dir}/no/w.svg",
     {},
     2, "no/w.", "expected a writable path"},
    {"MontecarloCsvKeptWhenGanttFails",
     "montecarlo --runs 10 --n 4 --algos tree-dyn --csv {dir}/m.csv --gantt {dir}/no/g.svg",
     {},
     2, "no/g.svg\"", "expected a writable path"},
    {"SteadyTraceKeptWhenGanttFails",
     "steady scatter --topology {dir}/net.dot --source a --targets b --emulate 5 --trace {dir}/t.jsonl "
     "--gantt {dir}/no/g.svg",
     {NET_DOT},
     2, "no/g.svg\"", "expected a writable path"},
    {"OptimalProofKeptWhenOutputFails", "optimal --topology ring:4 --proof {dir}/proofs -o {dir}/no/s.json",
     {},
     2, "no/s.json\"", "expected a writable path"},
    // A full disk is a runtime failure, exit 3 (DESIGN; ScheduleCommand.AFullDiskOnStandardOutput…),
    // and the device node stays a device: nothing replaces it.
    {"ExportOntoFullDevice", "topo export ring:4 --format dot -o {dir}/full",
     {full_device("full")},
     3, "full\"", "No space left on device"},
    {"ScheduleExportOntoFullDevice", "schedule export --algorithm ring --topology ring:4 -o {dir}/full",
     {full_device("full")},
     3, "full\"", "No space left on device"},
    {"VizOntoFullDevice", "viz allreduce --topology star:3 -o {dir}/full",
     {full_device("full")},
     3, "full\"", "No space left on device"},
    {"TopoInfoOntoFullStdout", "topo info star:3 > /dev/full", {}, 3, "standard output", "No space left on device"},
    {"ExportOntoFullStdout", "topo export ring:4 --format dot -o - > /dev/full",
     {},
     3, "standard output", "No space left on device"},
    {"MarkovOntoFullStdout", "markov --n 3 --json > /dev/full", {}, 3, "standard output", "No space left on device"},
    {"CompareOntoFullStdout", "topo compare star:3 ring:4 > /dev/full",
     {},
     3, "standard output", "No space left on device"},
    // Help and the version are output too.
    {"HelpOntoFullStdout", "--help > /dev/full", {}, 3, "standard output", "No space left on device"},
    {"SubcommandHelpOntoFullStdout", "steady --help > /dev/full", {}, 3, "standard output", "No space left on device"},
    {"HelpAllOntoFullStdout", "--help-all > /dev/full", {}, 3, "standard output", "No space left on device"},
    {"VersionOntoFullStdout", "--version > /dev/full", {}, 3, "standard output", "No space left on device"},
};
// clang-format on

std::string expand(std::string text, const fs::path& dir) {
  const std::pair<std::string_view, std::string> keys[] = {
      {"{dir}", dir.string()}, {"{schedule}", STARNET_SOURCE_DIR "/docs/examples/schedules/allreduce.json"}};
  for (const auto& [key, value] : keys) {
    for (auto at = text.find(key); at != std::string::npos; at = text.find(key, at + value.size())) {
      text.replace(at, key.size(), value);
    }
  }
  return text;
}

/// Makes @p e in @p dir; false (errno set) when this machine does not allow it (mknod needs root).
bool make(const fs::path& dir, const Entry& e) {
  const auto path = dir / e.name;
  switch (e.kind) {
    case Kind::REGULAR: return static_cast<bool>(std::ofstream(path, std::ios::binary) << e.text);
    case Kind::FIFO: return ::mkfifo(path.c_str(), 0600) == 0;
    case Kind::DIRECTORY: return ::mkdir(path.c_str(), 0700) == 0;
    case Kind::FULL_DEVICE: return ::mknod(path.c_str(), S_IFCHR | 0600, makedev(1, 7)) == 0;
  }
  return false;
}

/// The scratch folder's entries and their types: a partial output or a replaced input shows here.
std::map<std::string, fs::file_type> listing(const fs::path& dir) {
  std::map<std::string, fs::file_type> entries;
  for (const auto& e : fs::directory_iterator(dir)) entries[e.path().filename().string()] = e.symlink_status().type();
  return entries;
}

/// `starnet ARGS` as run_starnet() runs it, but with standard input from /dev/null unless ARGS
/// redirects it, and under `timeout`: a run that waits on a FIFO ends with exit code 124 instead
/// of holding the test.
CliResult run_bounded(const std::string& args, const fs::path& err_path) {
  return run_shell("timeout -k 5 " + std::to_string(TIME_LIMIT_S) + " " + STARNET_EXE + " </dev/null " + args, err_path);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

/// One message: a first line "starnet: error: …" or "starnet: usage error: …", then at most the
/// usage hint; no warning, no second error, no line forged by a newline the input carried.
void expect_one_message(const std::string& err) {
  const auto lines = lines_of(err);
  ASSERT_FALSE(lines.empty()) << "no message on stderr";
  EXPECT_TRUE(lines[0].starts_with("starnet: error: ") || lines[0].starts_with("starnet: usage error: ")) << err;
  for (std::size_t i = 1; i < lines.size(); ++i) EXPECT_EQ(lines[i], USAGE_HINT) << "stderr line " << i + 1;
  EXPECT_THAT(err, Not(HasSubstr("(Success)"))) << "errno 0 given as the reason";
}

class BadInputTest : public ::testing::TestWithParam<BadInput> {
 protected:
  void SetUp() override {
    const auto stem = "starnet_bad_input_" + std::to_string(::getpid()) + "_" + GetParam().name;
    dir_ = fs::temp_directory_path() / stem;
    err_ = fs::temp_directory_path() / (stem + ".err");
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }
  fs::path dir_;
  fs::path err_;  ///< beside the scratch folder, not in it: the folder must hold only what the row made
};

TEST_P(BadInputTest, IsRefusedWithOneMessageNamingIt) {
  const BadInput& row = GetParam();
  for (const auto& e : row.setup) {
    if (!make(dir_, e)) GTEST_SKIP() << e.name << " cannot be made here: " << std::strerror(errno);
  }
  const auto before = listing(dir_);
  const auto r = run_bounded(expand(row.args, dir_), err_);
  EXPECT_EQ(r.exit_code, row.exit_code) << "(124: still running after " << TIME_LIMIT_S
                                        << " s; 128 + N: killed by signal N)\n" << r.err;
  EXPECT_EQ(r.out, "") << "a refused run prints nothing on standard output";
  expect_one_message(r.err);
  EXPECT_THAT(r.err, HasSubstr(expand(row.names, dir_))) << "the message names the input";
  EXPECT_THAT(r.err, HasSubstr(expand(row.says, dir_))) << "and says what was expected";
  EXPECT_EQ(printable(r.err), r.err) << "raw control bytes or bytes that are not UTF-8";
  EXPECT_EQ(listing(dir_), before) << "a partial output was left behind, or an input replaced";
}

INSTANTIATE_TEST_SUITE_P(Battery, BadInputTest, ::testing::ValuesIn(BATTERY),
                         [](const ::testing::TestParamInfo<BadInput>& row) { return row.param.name; });

}  // namespace
}  // namespace starnet::tools::testing
