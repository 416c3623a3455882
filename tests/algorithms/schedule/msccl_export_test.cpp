// Schedules written as MSCCL XML: every file checked against the GPU loaders' rules
// (msccl_rules.hpp), read back by starnet's importer as the same transfers, run and verified on
// every node and chunk; the acceptance list of docs/gpu.md, every built-in of the catalogue, the
// real files of ../shared/data/msccl, and what MSCCL cannot express, refused with the reason.
#include "starnet_test_paths.hpp"
#include "msccl_rules.hpp"
#include "schedule_test_support.hpp"

#include "../../core/expect_error.hpp"

#include <starnet/algorithms/collectives/catalogue.hpp>
#include <starnet/algorithms/schedule/msccl.hpp>
#include <starnet/algorithms/schedule/msccl_export.hpp>
#include <starnet/core/error.hpp>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>

namespace starnet::algorithms::schedule::testing {
namespace {

namespace coll = algorithms::collectives;
using ::testing::HasSubstr;
using starnet::testing::msccl::check_loader_rules;

/// Writes @p s, checks the file against the loader's rules, reads it back, compares the transfers,
/// runs the read-back (unit time, arbitrated: a program) and returns the run. Writing twice gives
/// the same bytes.
ScheduleRun export_and_run(const Schedule& s, const topology::Topology& t, const std::string& what) {
  const auto file = write_msccl(s, {.name = what});
  EXPECT_EQ(write_msccl(s, {.name = what}).xml, file.xml) << what;
  const auto rules = check_loader_rules(file.xml);
  EXPECT_TRUE(rules.ok()) << what << ":\n" << rules.all();
  const auto back = read_msccl(file.xml, what + ".xml");
  EXPECT_EQ(back.gpus, s.nodes()) << what;
  EXPECT_EQ(back.threadblocks, file.threadblocks) << what;
  EXPECT_EQ(back.steps, file.steps) << what;
  EXPECT_EQ(transfer_difference(s, back.schedule), std::nullopt) << what;
  EXPECT_EQ(back.schedule.transfers(), s.transfers()) << what;
  ScheduleRunSettings settings;
  settings.config.checking = emulator::Checking::ARBITRATED;
  auto r = run_schedule(back.schedule, t, settings);
  EXPECT_TRUE(r.verified) << what << ": " << r.report.first_problem();
  EXPECT_EQ(r.report.nodes_checked, s.nodes()) << what;
  return r;
}

struct Case {
  coll::Algorithm algorithm;
  const char* spec;
  Collective collective;
  std::uint32_t steps;  ///< the stepped schedule's, which the read-back program takes too
};

TEST(MscclExport, TheAcceptanceListIsCheckedReadBackAndVerifiedInTheSameSteps) {
  const Case cases[] = {
      {coll::Algorithm::RECURSIVE_DOUBLING, "hypercube:3", Collective::ALLREDUCE, 3},
      {coll::Algorithm::RING, "ring:8", Collective::ALLGATHER, 7},
      {coll::Algorithm::STAR, "star:4", Collective::ALLREDUCE, 6},
      {coll::Algorithm::RING_SPLIT, "ring:8", Collective::ALLREDUCE, 14},
      {coll::Algorithm::ONE_PACKET, "hypercube:3", Collective::ALLTOALL, 0},
      {coll::Algorithm::BRUCK, "complete:8", Collective::ALLTOALL, 0},
  };
  for (const auto& c : cases) {
    const auto t = topology::make_topology(c.spec);
    const auto built = coll::build(c.algorithm, c.collective, *t, c.spec, 0, {});
    const auto what = fmt::format("{} {} on {}", coll::to_string(c.algorithm), to_string(c.collective), c.spec);
    const auto r = export_and_run(built.schedule, *t, what);
    const auto steps = c.steps ? c.steps : built.schedule.steps();
    EXPECT_EQ(built.schedule.steps(), steps) << what;
    // Each node runs its actions in the schedule's order, as the stepped schedule does.
    EXPECT_EQ(r.run.makespan, Rational(static_cast<std::int64_t>(steps))) << what;
    EXPECT_EQ(r.report.chunks_correct, r.report.chunks_checked) << what;
  }
}

TEST(MscclExport, EveryBuiltInOfEveryCollectiveExportsOrSaysWhyNot) {
  const char* specs[] = {"star:3", "hypercube:2", "hypercube:3", "ring:5", "ring:6", "torus:2x4", "complete:5",
                         "complete:8", "mesh:2x3"};
  std::map<std::string, int> exported;
  int refused = 0;
  for (const char* spec : specs) {
    const auto t = topology::make_topology(spec);
    const auto shape = coll::shape_of(*t, spec);
    for (const Collective c : ALL_COLLECTIVES) {
      for (const auto a : coll::algorithms_for(c, shape)) {
        const auto what = fmt::format("{} {} on {}", coll::to_string(a), to_string(c), spec);
        const auto built = coll::build(a, c, *t, spec, /*root=*/1, {});
        try {
          (void)write_msccl(built.schedule);
        } catch (const ScheduleError& e) {
          // Only the loader's limits refuse a built-in: a message of 72 chunks or more, 64 steps.
          EXPECT_THAT(e.what(), ::testing::AnyOf(HasSubstr("below 72"), HasSubstr("at most 64"),
                                                 HasSubstr("1024 for one rank")))
              << what;
          ++refused;
          continue;
        }
        export_and_run(built.schedule, *t, what);
        ++exported[to_string(c)];
      }
    }
  }
  // Every collective exported somewhere, the rooted ones (bfs-tree) included.
  for (const Collective c : ALL_COLLECTIVES) EXPECT_GT(exported[to_string(c)], 0) << to_string(c);
  EXPECT_LT(refused, 10);
}

TEST(MscclExport, ARootedCollectiveNamesItsRootAndReadsBackWithIt) {
  const auto t = topology::make_topology("ring:5");
  for (const Collective c : {Collective::REDUCE, Collective::BROADCAST, Collective::GATHER, Collective::SCATTER}) {
    const auto built = coll::build(coll::Algorithm::BFS_TREE, c, *t, "ring:5", /*root=*/3, {});
    const auto file = write_msccl(built.schedule);
    EXPECT_THAT(file.xml, HasSubstr(fmt::format("coll=\"{}\" inplace=\"1\" outofplace=\"0\" minBytes=\"0\" "
                                                "maxBytes=\"0\" root=\"3\">",
                                                to_string(c))));
    EXPECT_EQ(read_msccl(file.xml, "x.xml").schedule.rules().root(), 3U);
    export_and_run(built.schedule, *t, to_string(c));
  }
}

TEST(MscclExport, TheLayoutIsInPlaceWithTheDataInTheCollectivesOwnBuffer) {
  const auto ring = topology::make_topology("ring:4");
  const auto gather = write_msccl(coll::build(coll::Algorithm::RING, Collective::ALLGATHER, *ring, "ring:4", 0, {}).schedule);
  EXPECT_THAT(gather.xml, HasSubstr(R"(<gpu id="0" i_chunks="1" o_chunks="4" s_chunks="0">)"));
  EXPECT_THAT(gather.xml, HasSubstr(R"(type="s" srcbuf="o")"));
  const auto scatter = write_msccl(coll::build(coll::Algorithm::RING, Collective::REDUCESCATTER, *ring, "ring:4", 0, {}).schedule);
  EXPECT_THAT(scatter.xml, HasSubstr(R"(<gpu id="0" i_chunks="4" o_chunks="1" s_chunks="0">)"));
  EXPECT_THAT(scatter.xml, HasSubstr(R"(type="rrc" srcbuf="i")"));
  EXPECT_EQ(gather.xml.rfind("<algo name=\"starnet\" proto=\"Simple\" nchannels=\"1\" nchunksperloop=\"4\" ngpus=\"4\" "
                             "coll=\"allgather\" inplace=\"1\" outofplace=\"0\" minBytes=\"0\" maxBytes=\"0\">\n",
                             0),
            0U);
}

TEST(MscclExport, TheStarAllReduceStagesWhatItKeepsAndReduces) {
  // Its receive copies the chunk into scratch and reduces it into the result: received into
  // staging, then a cpy and a re.
  const auto t = topology::make_topology("star:4");
  const auto s = coll::build(coll::Algorithm::STAR, Collective::ALLREDUCE, *t, "star:4", 0, {}).schedule;
  const auto file = write_msccl(s, {.name = "star", .protocol = "LL"});
  EXPECT_EQ(file.staging, 1U);
  EXPECT_THAT(file.xml, HasSubstr("proto=\"LL\""));
  EXPECT_THAT(file.xml, HasSubstr(fmt::format("s_chunks=\"{}\"", s.scratch() + 1)));
  EXPECT_THAT(file.xml, HasSubstr(R"(type="re" srcbuf="s")"));
}

TEST(MscclExport, ProgramsRoundTripDependenciesIncluded) {
  // The real files and the importer's own tests' files: read, written, read back, the same.
  const auto dir = std::filesystem::path(STARNET_SOURCE_DIR) / "../shared/data/msccl";
  if (!std::filesystem::exists(dir)) GTEST_SKIP() << "../shared/data/msccl is absent: the real MSCCL files are not checked";
  const auto k8 = topology::make_topology("complete:8");
  for (const auto* name : {"ring_2_4.xml", "ring_1_8.xml", "ap_8.xml"}) {
    const auto original = read_msccl(slurp(dir / name), name);
    export_and_run(original.schedule, *k8, name);
    // A second round gives the same file.
    const auto once = write_msccl(original.schedule).xml;
    const auto twice = write_msccl(read_msccl(once, "once.xml").schedule).xml;
    EXPECT_EQ(write_msccl(read_msccl(twice, "twice.xml").schedule).xml, twice) << name;
  }
}

TEST(MscclExport, TheRealFilesBreakTheLoadersRulesAsTheLoaderWouldSayWhileTheImporterReadsThem) {
  const auto dir = std::filesystem::path(STARNET_SOURCE_DIR) / "../shared/data/msccl";
  if (!std::filesystem::exists(dir)) GTEST_SKIP() << "../shared/data/msccl is absent: the real MSCCL files are not checked";
  for (const auto* name : {"ring_2_4.xml", "ring_1_8.xml", "ap_8.xml", "alltonext_8in.xml"}) {
    const auto check = check_loader_rules(slurp(dir / name));
    ASSERT_FALSE(check.ok()) << name;
    // Written before the loader required the last three attributes of <algo>: the first problems.
    ASSERT_GE(check.problems.size(), 3U) << name;
    EXPECT_EQ(check.problems[0], "<algo>: attribute outofplace is missing (the loader requires it)") << name;
    EXPECT_THAT(check.problems[1], HasSubstr("attribute minBytes is missing")) << name;
    EXPECT_THAT(check.problems[2], HasSubstr("attribute maxBytes is missing")) << name;
    if (std::string(name) != "alltonext_8in.xml") {
      EXPECT_TRUE(read_msccl(slurp(dir / name), name).schedule.nodes() == 8U) << name;
    }
  }
  // With the three attributes added, nothing else is wrong with them.
  for (const auto* name : {"ring_2_4.xml", "ring_1_8.xml", "ap_8.xml", "alltonext_8in.xml"}) {
    auto text = slurp(dir / name);
    const auto end = text.find('>');
    text.insert(end, R"( outofplace="0" minBytes="0" maxBytes="0")");
    EXPECT_TRUE(check_loader_rules(text).ok()) << name << ":\n" << check_loader_rules(text).all();
  }
}

TEST(MscclExport, TheCheckerCatchesEachRuleBroken) {
  const auto t = topology::make_topology("ring:4");
  const auto good = write_msccl(coll::build(coll::Algorithm::RING, Collective::ALLGATHER, *t, "ring:4", 0, {}).schedule).xml;
  ASSERT_TRUE(check_loader_rules(good).ok());
  const auto broken = [&](const std::string& from, const std::string& to) {
    auto text = good;
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
    return check_loader_rules(text).all();
  };
  EXPECT_THAT(check_loader_rules("<?xml version=\"1.0\"?>\n" + good).all(), HasSubstr("must start with <algo>"));
  EXPECT_THAT(broken(R"( proto="Simple")", R"( proto="LL64")"), HasSubstr("proto=\"LL64\""));
  EXPECT_THAT(broken(R"( maxBytes="0")", R"( maxBytes='0')"), HasSubstr("double quotes"));
  EXPECT_THAT(broken(R"( coll="allgather")", "\n coll=\"allgather\""), HasSubstr("several lines"));
  EXPECT_THAT(broken(R"(type="s")", R"(type="x")"), HasSubstr("type=\"x\""));
  EXPECT_THAT(broken(R"(cnt="1")", R"(cnt="72")"), HasSubstr("cnt=\"72\""));
  EXPECT_THAT(broken(R"(srcbuf="o")", R"(srcbuf="t")"), HasSubstr("srcbuf=\"t\""));
  EXPECT_THAT(broken(R"(<tb id="0")", R"(<tb id="1")"), HasSubstr("without gaps"));
  EXPECT_THAT(broken(R"(send="1")", R"(send="0")"), HasSubstr("the GPU itself"));
  EXPECT_THAT(broken(R"(depid="-1" deps="-1")", R"(depid="0" deps="-1")"), HasSubstr("both -1"));
  EXPECT_THAT(broken(R"(depid="-1" deps="-1")", R"(depid="0" deps="40")"), HasSubstr("does not have"));
  EXPECT_THAT(broken(R"(<step s="1")", R"(<step s="2")"), HasSubstr("numbered 0, 1, 2"));
  EXPECT_THAT(broken(R"(<gpu id="3")", R"(<gpu id="2")"), HasSubstr("gpu 2 appears twice"));
  EXPECT_THAT(broken(R"(type="r")", R"(type="nop")"), HasSubstr("which receives"));
  EXPECT_THAT(broken(R"(type="s" srcbuf="o" srcoff="0")", R"(type="s" srcbuf="o" srcoff="4")"),
              HasSubstr("reaches past the buffer"));
  EXPECT_TRUE(starnet::testing::msccl::selected(good, 4096, 16384));
  EXPECT_FALSE(starnet::testing::msccl::selected(good, 4097, 16388));  // not a multiple of nchunksperloop
}

TEST(MscclExport, RefusesWhatMscclCannotExpressWithTheReason) {
  // A message of 72 chunks.
  ScheduleBuilder big(ChunkRules(Collective::ALLREDUCE, 2, 72, 0), 0);
  std::vector<TransferItem> items;
  for (std::uint32_t c = 0; c < 72; ++c) items.push_back({c, c, ItemOp::REDUCE});
  big.add_transfer(0, 0, 1, items);
  EXPECT_ERROR(ScheduleError, write_msccl(std::move(big).build()), "node 0", "72 chunks", "below 72");
  // 65 messages to one peer: 65 steps in one threadblock.
  ScheduleBuilder many(ChunkRules(Collective::ALLREDUCE, 2, 1, 0), 0);
  for (std::uint32_t step = 0; step < 65; ++step) many.add_transfer(step, 0, 1, std::vector<TransferItem>{{0, 0, ItemOp::COPY}});
  EXPECT_ERROR(ScheduleError, write_msccl(std::move(many).build()), "node 0", "more than 64 steps");
  // Relays.
  ScheduleBuilder relayed(ChunkRules(Collective::BROADCAST, 3, 1, 0, std::vector<bool>{false, true, false}), 0);
  relayed.add_transfer(0, 0, 1, std::vector<TransferItem>{{0, 0, ItemOp::COPY}});
  relayed.add_transfer(1, 1, 2, std::vector<TransferItem>{{0, 0, ItemOp::COPY}});
  EXPECT_ERROR(ScheduleError, write_msccl(std::move(relayed).build()), "relays", "every rank is a GPU");
  // A local operation whose items read what an earlier item wrote.
  ScheduleBuilder swap(ChunkRules(Collective::ALLREDUCE, 2, 1, 0), 2);
  swap.add_transfer(0, 0, 0, std::vector<TransferItem>{{0, 1, ItemOp::COPY}, {1, 2, ItemOp::COPY}});
  EXPECT_ERROR(ScheduleError, write_msccl(std::move(swap).build()), "node 0", "reads chunk 1 after writing it");
  EXPECT_ERROR(ScheduleError, write_msccl(ScheduleBuilder(ChunkRules(Collective::ALLREDUCE, 2, 1, 0), 0).build(), {.protocol = "LL256"}),
               "protocol \"LL256\"");
  // An out-of-place all-gather read from MSCCL: its input and output are two buffers.
  std::string xml = R"(<algo ngpus="2" coll="allgather" nchunksperloop="2" inplace="0">)";
  for (int g = 0; g < 2; ++g) {
    xml += fmt::format(R"(<gpu id="{0}" i_chunks="1" o_chunks="2" s_chunks="0"><tb id="0" send="{1}" recv="{1}" chan="0">
        <step s="0" type="cpy" srcbuf="i" srcoff="0" dstbuf="o" dstoff="{0}" cnt="1"/>
        <step s="1" type="s" srcbuf="o" srcoff="{0}" dstbuf="o" dstoff="{0}" cnt="1"/>
        <step s="2" type="r" srcbuf="o" srcoff="{1}" dstbuf="o" dstoff="{1}" cnt="1"/></tb></gpu>)",
                       g, 1 - g);
  }
  const auto out_of_place = read_msccl(xml + "</algo>", "oop.xml");
  EXPECT_ERROR(ScheduleError, write_msccl(out_of_place.schedule), "input and output in separate buffers");
}

TEST(MscclExport, TransferDifferenceNamesTheFirstMessageThatDiffers) {
  const auto t = topology::make_topology("ring:4");
  const auto a = coll::build(coll::Algorithm::RING, Collective::ALLGATHER, *t, "ring:4", 0, {}).schedule;
  const auto b = coll::build(coll::Algorithm::RING, Collective::REDUCESCATTER, *t, "ring:4", 0, {}).schedule;
  EXPECT_THAT(transfer_difference(a, b).value_or(""), HasSubstr("reads back as reducescatter"));
  auto xml = write_msccl(a).xml;
  const auto at = xml.find(R"(type="s" srcbuf="o" srcoff="0")");
  ASSERT_NE(at, std::string::npos);
  xml.replace(xml.find("srcoff=\"0\"", at), 10, "srcoff=\"2\"");
  EXPECT_THAT(transfer_difference(a, read_msccl(xml, "x.xml").schedule).value_or(""), HasSubstr("from node 0 to node 1 sends"));
}

}  // namespace
}  // namespace starnet::algorithms::schedule::testing
