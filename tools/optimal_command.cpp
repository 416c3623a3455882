// `starnet optimal`: exact minimum step counts of gossip (all-gather, all-reduce with messages of
// several values) and broadcast in the single-port model, by SAT, with both answers checked
// (issue 19; docs/optimal.md).
#include "command.hpp"
#include "json_output.hpp"
#include "progress.hpp"
#include "optimal_uniform.hpp"

#include <starnet/algorithms/generic/subnetwork.hpp>
#include <starnet/algorithms/optimal/coset_search.hpp>
#include <starnet/algorithms/optimal/optimal_search.hpp>
#include <starnet/algorithms/optimal/uniform_search.hpp>
#include <starnet/algorithms/schedule/schedule_run.hpp>
#include <starnet/algorithms/star/allreduce.hpp>
#include <starnet/emulator/engine.hpp>
#include <starnet/topology/spec.hpp>
#include <starnet/topology/star_graph.hpp>
#include <starnet/algorithms/schedule/schedule_json.hpp>
#include <starnet/core/error.hpp>
#include <starnet/topology/families.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <iostream>

namespace starnet::tools {
namespace {

namespace opt = algorithms::optimal;

/// Seconds each instance of `--study star` may take unless --time-limit says otherwise.
constexpr double STUDY_SECONDS = 60;
constexpr long MAX_PORTS = 64;

opt::Goal goal_of(const std::string& collective) {
  if (collective == "gossip" || collective == "allgather" || collective == "allreduce") return opt::Goal::GOSSIP;
  if (collective == "broadcast") return opt::Goal::BROADCAST;
  throw UsageError(fmt::format("--collective {}: expected gossip, allgather, allreduce (messages of several values: "
                               "all three are gossip) or broadcast",
                               collective));
}

emulator::PortModel port_model(const OptimalOptions& o) {
  if (o.ports < 1 || o.ports > MAX_PORTS) {
    throw UsageError(fmt::format("--ports {}: expected a number of ports in 1..{}", o.ports, MAX_PORTS));
  }
  if (o.duplex != "full" && o.duplex != "half") throw UsageError(fmt::format("--duplex {}: expected full or half", o.duplex));
  return {static_cast<unsigned>(o.ports), o.duplex == "half"};
}

void progress(const opt::SolveRecord& r) {
  progress_detail(fmt::format("T = {}: {} ({} variables, {} clauses, {:.2f} s)", r.steps,
                              !r.satisfiable ? "stopped" : *r.satisfiable ? "SAT" : "UNSAT", r.variables, r.clauses,
                              r.seconds));
}

nlohmann::json result_json(const opt::OptimalResult& r, const std::string& collective, const std::string& spec,
                           const emulator::PortModel& ports) {
  nlohmann::json bounds = nlohmann::json::object();
  for (const auto& b : r.bounds) bounds[b.name] = b.steps;
  nlohmann::json calls = nlohmann::json::array();
  std::uint64_t learned = 0;
  for (const auto& s : r.solves) {
    learned += s.learned;
    nlohmann::json c = {{"steps", s.steps},
                        {"answer", !s.satisfiable ? "stopped" : *s.satisfiable ? "SAT" : "UNSAT"},
                        {"variables", s.variables},
                        {"clauses", s.clauses},
                        {"learned_clauses", s.learned},
                        {"seconds", s.seconds}};
    if (!s.second_solver.empty()) c["second_solver"] = s.second_solver;
    if (!s.proof.empty()) c["proof"] = s.proof;
    calls.push_back(c);
  }
  return {{"collective", collective},
          {"topology", spec},
          {"ports", ports.ports},
          {"duplex", ports.half_duplex ? "half" : "full"},
          {"optimum", r.optimum ? nlohmann::json(*r.optimum) : nlohmann::json(nullptr)},
          {"proved", r.status == opt::Status::OPTIMAL},
          {"lower_bound", r.lower_bound},
          {"upper_bound", r.upper_bound ? nlohmann::json(*r.upper_bound) : nlohmann::json(nullptr)},
          {"upper_source", r.upper_source},
          {"builtin", r.builtin},
          {"builtin_steps", r.builtin_steps ? nlohmann::json(*r.builtin_steps) : nlohmann::json(nullptr)},
          {"bounds", bounds},
          {"schedule_verified", r.schedule_verified},
          {"verified", r.schedule_verified},
          {"solver", {{"name", "CaDiCaL"}, {"calls", calls}, {"learned_clauses", learned}}},
          {"seconds", r.seconds}};
}

opt::OptimalResult search(const topology::Topology& t, const std::string& spec, opt::Goal goal, topology::NodeId root,
                          const emulator::PortModel& ports, double seconds, const std::string& proof) {
  opt::OptimalSearch s;
  s.topology(t, spec).goal(goal).root(root).ports(ports).time_limit(seconds).on_solve(progress);
  if (!proof.empty()) s.proof_dir(proof);
  return s.run().result();
}

int single(const OptimalOptions& o) {
  if (o.topology.empty()) throw UsageError("--topology is required (e.g. --topology star:4), or use --study star");
  if (o.method == "uniform" || o.method == "coset") return optimal_in_class(o);
  if (o.method == "auto") {
    // SAT (with the uniform search's upper bound) where it can prove; the uniform search beyond.
    const auto nodes = topology::make_topology(o.topology)->num_nodes();
    if (nodes > opt::MAX_EXACT_NODES) {
      auto uniform = o;
      uniform.method = "uniform";
      return optimal_in_class(uniform);
    }
  } else if (o.method != "sat") {
    throw UsageError(fmt::format("--method {}: expected sat, uniform, coset or auto", o.method));
  }
  if (o.anytime || o.beam_width != -1) throw UsageError("--anytime and --beam-width: for --method uniform or coset");
  const opt::Goal goal = goal_of(o.collective);
  const auto ports = port_model(o);
  const auto t = topology::make_topology(o.topology);
  topology::NodeId root = 0;
  if (goal == opt::Goal::BROADCAST) {
    if (o.root.empty()) throw UsageError("--root is required for broadcast (a node name or index)");
    const auto r = algorithms::generic::find_node(*t, o.root);
    if (!r) throw UsageError(fmt::format("--root {}: not a node of {}", o.root, o.topology));
    root = *r;
  }
  if (!o.proof.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(o.proof, ec);
    if (!std::filesystem::is_directory(o.proof)) {
      throw UsageError(fmt::format("--proof {}: cannot be created as a directory", o.proof));
    }
  }
  const auto r = search(*t, o.topology, goal, root, ports, o.time_limit, o.proof);
  if (!o.output.empty() && r.schedule) {
    write_file_atomically(o.output, algorithms::schedule::write_schedule_json(
                                        *r.schedule, *t, o.topology,
                                        fmt::format("a {}-step {} found and proved optimal by starnet optimal",
                                                    *r.optimum, o.collective)));
  }
  if (o.json) {
    print_json(result_json(r, o.collective, o.topology, ports));
  } else {
    std::cout << fmt::format("{} on {} ({} nodes), {}\n", o.collective, o.topology, t->num_nodes(), ports.to_string());
    for (const auto& b : r.bounds) std::cout << fmt::format("  bound {:<15} {:>3}  {}\n", b.name, b.steps, b.reason);
    if (r.builtin_steps) {
      std::cout << fmt::format("  built-in        {:>3}  {} (an upper bound, run verified on the emulator)\n",
                               *r.builtin_steps, r.builtin);
    }
    for (const auto& s : r.solves) {
      std::cout << fmt::format("  T = {:>2}: {:<7} {} variables, {} clauses, {} learned, {:.2f} s{}{}\n", s.steps,
                               !s.satisfiable ? "stopped" : *s.satisfiable ? "SAT" : "UNSAT", s.variables, s.clauses,
                               s.learned, s.seconds, s.second_solver.empty() ? "" : "; CryptoMiniSat: " + s.second_solver,
                               s.proof.empty() ? "" : "; DRAT proof: " + s.proof);
    }
    if (r.optimum) {
      std::cout << fmt::format("optimum: {} steps (proved: {}; the schedule runs verified on the emulator)\n",
                               *r.optimum,
                               *r.optimum == r.bounds.front().steps || r.solves.size() > 1 || *r.optimum == r.lower_bound
                                   ? "no schedule of " + std::to_string(*r.optimum - 1) + " steps exists"
                                   : "a lower bound");
    } else {
      std::cout << fmt::format("time limit: the optimum lies in [{}, {}]\n", r.lower_bound,
                               r.upper_bound ? std::to_string(*r.upper_bound) : std::string("?"));
    }
    std::cout << fmt::format("wall time: {:.2f} s\n", r.seconds);
  }
  return r.optimum ? 0 : 3;
}

struct StudyRow {
  std::string spec;
  std::uint64_t nodes;
  bool half;
  opt::OptimalResult r;
};

/// The α–β time of a gossip whose step t carries @p items[t] items per message: Σ α + m·items/β.
double alpha_beta_time(const std::vector<std::uint64_t>& items, double alpha, double beta, double m) {
  double time = 0;
  for (const auto x : items) time += alpha + m * static_cast<double>(x) / beta;
  return time;
}

/// Items per message at each step of the paper's broadcast: step offset of level m carries (m−1)!.
std::vector<std::uint64_t> paper_items(int n) {
  std::vector<std::uint64_t> items;
  for (int m = 2; m <= n; ++m) {
    for (int off = 0; off < m - 1; ++off) items.push_back(topology::StarGraph::factorial(m - 1));
  }
  return items;
}

/// `--study star-beyond`: uniform gossips on S_3..S_10 beside the paper (docs/beyond.md).
int study_beyond(const OptimalOptions& o) {
  // α = 1 time unit per message, β = 1 item per time unit; small and large items.
  constexpr double ALPHA = 1;
  constexpr double BETA = 1;
  constexpr double SMALL = 1.0 / 1024;
  constexpr double LARGE = 1;
  constexpr int EXHAUSTIVE_UP_TO = 6;
  constexpr int SAT_UP_TO = 4;
  // The coset class (coset_search.hpp): exhaustive on S_4, a beam on S_5 (S_6: minutes, docs/beyond.md).
  constexpr int COSET_EXHAUSTIVE_UP_TO = 4;
  constexpr int COSET_UP_TO = 5;
  constexpr std::size_t COSET_BEAM_WIDTH = 1000;
  constexpr std::size_t BEAM_WIDTHS[] = {0, 0, 0, 0, 0, 0, 0, 2000, 200, 200, 20};
  const double seconds = o.time_limit > 0 ? o.time_limit : STUDY_SECONDS;
  std::string text = fmt::format("{:>2} {:>9} {:>6} {:>8} {:>7} {:>6} {:>9} {:>6} {:>9} {:>12} {:>12} {:>8}\n", "n",
                                 "n!", "paper", "uniform", "proved", "coset", "SAT", "log2n!", "largest", "αβ small",
                                 "αβ large", "seconds");
  std::string csv = "n,nodes,paper_steps,uniform_steps,uniform_proved_minimal,method,coset_steps,sat_optimum,log2_bound,"
                    "largest_message,alpha_beta_small_paper,alpha_beta_small_uniform,alpha_beta_large_paper,"
                    "alpha_beta_large_uniform,seconds,dimensions,verified\n";
  bool all_verified = true;
  for (int n = 3; n <= opt::MAX_UNIFORM_N; ++n) {
    const auto g = opt::CayleyGroup::star(n);
    const bool exhaustive = n <= EXHAUSTIVE_UP_TO;
    const auto r = exhaustive ? opt::uniform_exhaustive(g, static_cast<int>(algorithms::star::allreduce_steps(n)), seconds)
                              : opt::uniform_beam(g, BEAM_WIDTHS[n], static_cast<int>(algorithms::star::allreduce_steps(n)), seconds);
    std::vector<std::uint64_t> items;
    for (std::size_t t = 1; t < r.sizes.size(); ++t) items.push_back(r.sizes[t] - r.sizes[t - 1]);
    const auto paper = paper_items(n);
    std::string sat = "";
    if (n <= SAT_UP_TO) {
      const topology::StarGraph t(n);
      opt::OptimalSearch s;
      s.topology(t, fmt::format("star:{}", n)).time_limit(seconds);
      const auto& res = s.run().result();
      sat = res.optimum ? std::to_string(*res.optimum) : fmt::format("[{},{}]", res.lower_bound, *res.upper_bound);
    }
    std::string coset = "-";
    if (n <= COSET_UP_TO) {
      const auto c = opt::coset_search(n, n <= COSET_EXHAUSTIVE_UP_TO ? 0 : COSET_BEAM_WIDTH,
                                       static_cast<int>(algorithms::star::allreduce_steps(n)), seconds);
      coset = c.steps.empty() ? "none" : std::to_string(c.steps.size()) + (c.proved_minimal ? "*" : "");
    }
    std::uint64_t log2 = 0;
    while ((std::uint64_t{1} << log2) < g.order()) ++log2;
    const auto largest = items.empty() ? 0 : *std::max_element(items.begin(), items.end());
    const bool proved = exhaustive && r.complete;
    const bool verified = !r.dimensions.empty() && verify_uniform_gossip(g, r.dimensions);
    all_verified = all_verified && verified;
    text += fmt::format("{:>2} {:>9} {:>6} {:>8} {:>7} {:>6} {:>9} {:>6} {:>9} {:>5.1f}/{:<6.1f} {:>5.0f}/{:<6.0f} {:>8.2f}\n",
                        n, g.order(), paper.size(), fmt::format("{}{}", r.dimensions.size(), verified ? "" : "!"),
                        proved ? "yes" : "no", coset,
                        sat.empty() ? "-" : sat,
                        log2, largest, alpha_beta_time(paper, ALPHA, BETA, SMALL),
                        alpha_beta_time(items, ALPHA, BETA, SMALL), alpha_beta_time(paper, ALPHA, BETA, LARGE),
                        alpha_beta_time(items, ALPHA, BETA, LARGE), r.seconds);
    csv += fmt::format("{},{},{},{},{},{},{},{},{},{},{:.4f},{:.4f},{:.0f},{:.0f},{:.3f},{},{}\n", n, g.order(), paper.size(),
                       r.dimensions.size(), proved, exhaustive ? "exhaustive" : fmt::format("beam {}", BEAM_WIDTHS[n]),
                       coset, sat, log2, largest, alpha_beta_time(paper, ALPHA, BETA, SMALL),
                       alpha_beta_time(items, ALPHA, BETA, SMALL), alpha_beta_time(paper, ALPHA, BETA, LARGE),
                       alpha_beta_time(items, ALPHA, BETA, LARGE), r.seconds, fmt::join(r.dimensions, " "), verified);
  }
  if (!o.csv.empty()) write_file_atomically(o.csv, csv);
  std::cout << text << "αβ: time of the paper's schedule / of the uniform one with α = 1, β = 1, items of size 1/1024 "
                       "(small) and 1 (large)\ncoset: the shortest coset schedule found (* proved minimal in the class; "
                       "S_5: beam of width 1000)\n"
            << (all_verified ? "every uniform gossip above ran verified on the emulator (S_7..S_10 with meta messages)\n"
                             : "NOT VERIFIED: the uniform gossips marked ! failed on the emulator\n");
  return all_verified ? 0 : 1;
}

int study(const OptimalOptions& o) {
  if (o.study == "star-beyond") return study_beyond(o);
  if (o.study != "star") throw UsageError(fmt::format("--study {}: expected star or star-beyond", o.study));
  const std::vector<std::string> specs = {"star:3",     "star:4",      "star:5",      "hypercube:3", "hypercube:4",
                                          "complete:4", "complete:6",  "complete:8",  "ring:6",      "ring:8",
                                          "torus:3x3",  "torus:4x4"};
  const double seconds = o.time_limit > 0 ? o.time_limit : STUDY_SECONDS;
  std::vector<StudyRow> rows;
  for (const auto& spec : specs) {
    const auto t = topology::make_topology(spec);
    for (const bool half : {false, true}) {
      progress_detail(fmt::format("{} {} duplex", spec, half ? "half" : "full"));
      rows.push_back({spec, t->num_nodes(), half, search(*t, spec, opt::Goal::GOSSIP, 0, {1, half}, seconds, "")});
    }
  }
  const auto bound_of = [](const opt::OptimalResult& r, const std::string& name) -> std::string {
    for (const auto& b : r.bounds) {
      if (b.name == name) return std::to_string(b.steps);
    }
    return "";
  };
  std::string csv = "topology,nodes,duplex,builtin,builtin_steps,optimum,lower_bound,upper_bound,distance,counting,"
                    "degree_limited,fibonacci,seconds\n";
  std::string text = fmt::format("{:<12} {:>5} {:<5} {:<22} {:>9} {:>5} {:>5} {:>5} {:>5} {:>8}\n", "topology", "nodes",
                                 "duplex", "built-in (steps)", "optimum", "diam", "count", "deg", "fib", "seconds");
  nlohmann::json json_rows = nlohmann::json::array();
  for (const auto& row : rows) {
    const auto& r = row.r;
    const std::string builtin =
        r.builtin_steps ? fmt::format("{} ({})", r.builtin, *r.builtin_steps) : std::string("none");
    const std::string optimum =
        r.optimum ? std::to_string(*r.optimum)
                  : fmt::format("[{},{}]", r.lower_bound, r.upper_bound ? std::to_string(*r.upper_bound) : "?");
    text += fmt::format("{:<12} {:>5} {:<5} {:<22} {:>9} {:>5} {:>5} {:>5} {:>5} {:>8.2f}\n", row.spec, row.nodes,
                        row.half ? "half" : "full", builtin, optimum, bound_of(r, "distance"), bound_of(r, "counting"),
                        bound_of(r, "degree-limited"), bound_of(r, "fibonacci"), r.seconds);
    csv += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{:.3f}\n", row.spec, row.nodes, row.half ? "half" : "full",
                       r.builtin, r.builtin_steps ? std::to_string(*r.builtin_steps) : "", r.optimum ? std::to_string(*r.optimum) : "", r.lower_bound,
                       r.upper_bound ? std::to_string(*r.upper_bound) : "", bound_of(r, "distance"),
                       bound_of(r, "counting"), bound_of(r, "degree-limited"), bound_of(r, "fibonacci"), r.seconds);
    json_rows.push_back(result_json(r, "gossip", row.spec, {1, row.half}));
  }
  if (!o.csv.empty()) write_file_atomically(o.csv, csv);
  if (o.json) {
    bool all_verified = true;
    for (const auto& row : json_rows) all_verified = all_verified && row.at("verified").get<bool>();
    print_json({{"study", "star"}, {"rows", json_rows}, {"verified", all_verified}});
  } else {
    std::cout << text;
  }
  return 0;
}

}  // namespace

void add_optimal_command(CLI::App& app, Action& action) {
  static OptimalOptions o;
  auto* cmd = app.add_subcommand(
      "optimal",
      "Exact minimum step counts in the single-port (k-port) model by SAT (CaDiCaL), proved both ways: the schedule "
      "of the optimum runs verified on the emulator, every shorter T is refuted (CryptoMiniSat confirms; --proof "
      "checks DRAT proofs). Exit 3 with the proven bracket when --time-limit is reached (docs/optimal.md)");
  cmd->add_option("--collective", o.collective,
                  "gossip, allgather or allreduce (messages may carry several values: all three are gossip), or "
                  "broadcast (from --root)")
      ->capture_default_str();
  auto* topology = cmd->add_option("--topology", o.topology, "Topology spec or file (at most 256 nodes)");
  cmd->add_option("--root", o.root, "Root of broadcast: a node name or index");
  cmd->add_option("--ports", o.ports, "Ports per node k ≥ 1")->capture_default_str();
  cmd->add_option("--duplex", o.duplex, "full (k sends and k receives per step) or half (k transfers in all)")
      ->capture_default_str();
  cmd->add_option("--time-limit", o.time_limit, "Seconds for the whole search (0: none; --study: 60 per instance)")
      ->check(finite_number(0));
  cmd->add_flag("--json", o.json, "Print one JSON document");
  cmd->add_option("-o,--output", o.output, "Write the optimal schedule (starnet schedule format) to FILE")->check(output_file());
  cmd->add_option("--proof", o.proof, "Write each UNSAT's CNF and DRAT proof to DIR and check every proof");
  cmd->add_option("--method", o.method,
                  "sat (exact, any topology ≤ 256 nodes); uniform (Cayley graphs: star:N up to 10, hypercube, ring, "
                  "torus, complete; every node uses the same generator each step); coset (star:3..6: the dimension "
                  "depends on the node's last symbol); auto (sat up to 256 nodes, its upper bound from the uniform "
                  "search; uniform beyond). docs/beyond.md")
      ->capture_default_str();
  cmd->add_option("--beam-width", o.beam_width, "--method uniform: beam search of this width instead of exhaustive");
  cmd->add_option("--max-steps", o.max_steps,
                  "--method uniform|coset: longest schedule searched (default n(n−1)/2 on star:N, |G| − 1 elsewhere)");
  cmd->add_flag("--anytime", o.anytime,
                "--method uniform: beam searches of width 1, 2, 4, … until --time-limit, keeping the shortest found");
  auto* study_option = cmd->add_option("--study", o.study, "star: S_3..S_5, Q_3, Q_4, K_n, rings and tori, full and half duplex; star-beyond: uniform gossips on "
                  "S_3..S_10 beside the paper (docs/beyond.md)");
  study_option->excludes(topology);
  cmd->add_option("--csv", o.csv, "With --study: also write the table as CSV to FILE")
      ->check(output_file())
      ->needs(study_option);
  cmd->callback([&action, cmd] {
    action = [cmd] {
      applies_only(*cmd, "--root", o.collective == "broadcast", "--collective broadcast");
      applies_only(*cmd, "--max-steps", o.method != "sat", "--method uniform, coset or auto");
      return o.study.empty() ? single(o) : study(o);
    };
  });
}

}  // namespace starnet::tools
