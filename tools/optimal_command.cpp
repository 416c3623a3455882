// `starnet optimal`: exact minimum step counts of gossip (all-gather, all-reduce with messages of
// several values) and broadcast in the port model, by SAT, proved both ways, and the shortest
// schedules within a class (api/optimal.hpp; docs/optimal.md, docs/beyond.md).
#include "command.hpp"
#include "json_output.hpp"

#include <starnet/api/core.hpp>
#include <starnet/api/optimal.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <iostream>

namespace starnet::tools {
namespace {


struct OptimalOptions {
  std::string collective = "gossip";
  std::string topology;
  std::string root = std::string(api::DEFAULT_ROOT);
  long ports = 1;
  std::string duplex = "full";
  double time_limit = api::DEFAULT_OPTIMAL_SECONDS;
  bool json = false;
  std::string output;
  std::string proof;
  std::string study;
  std::string csv;
  std::string method = "sat";
  long beam_width = 0;
  long max_steps = 0;
  bool anytime = false;
};

std::string answer(const api::SolveRecord& s) { return !s.satisfiable ? "stopped" : *s.satisfiable ? "SAT" : "UNSAT"; }

std::string sat_text(const api::OptimalOutcome& o) {
  const auto& r = *o.sat;
  std::string out = fmt::format("{} on {} ({}), {}\n", to_string(o.request.collective), o.request.topology.spec(),
                                plural(o.nodes, "node", "nodes"), o.request.ports.to_string());
  for (const auto& b : r.bounds) out += fmt::format("  bound {:<15} {:>3}  {}\n", b.name, b.steps, b.reason);
  if (r.builtin_steps) {
    out += fmt::format("  built-in        {:>3}  {} (an upper bound, run verified on the emulator)\n", *r.builtin_steps,
                       r.builtin);
  }
  if (r.upper_bound && r.upper_source == "uniform") {
    out += fmt::format("  uniform gossip  {:>3}  the shortest uniform schedule (an upper bound, run verified)\n",
                       *r.upper_bound);
  }
  for (const auto& s : r.solves) {
    out += fmt::format("  T = {:>2}: {:<7} {} variables, {} clauses, {} learned, {:.2f} s{}{}\n", s.steps, answer(s),
                       s.variables, s.clauses, s.learned, s.seconds,
                       s.second_solver.empty() ? "" : "; CryptoMiniSat: " + s.second_solver,
                       s.proof.empty() ? "" : "; DRAT proof: " + s.proof);
  }
  if (r.optimum) {
    const bool unsat_below = std::any_of(r.solves.begin(), r.solves.end(), [&r](const api::SolveRecord& s) {
      return s.satisfiable && !*s.satisfiable && s.steps + 1 == *r.optimum;
    });
    // Zero steps (one node) needs no proof: there is no shorter schedule to rule out.
    const std::string proof =
        *r.optimum == 0 ? "nothing to move"
                        : fmt::format("no schedule of {} exists, by {}", plural(*r.optimum - 1, "step", "steps"),
                                      unsat_below ? fmt::format("UNSAT at T = {}", *r.optimum - 1) : "a lower bound");
    out += fmt::format("optimum: {} (proved: {}; the schedule of {} runs verified on the emulator)\n",
                       plural(*r.optimum, "step", "steps"), proof, r.upper_source);
  } else {
    out += fmt::format("time limit: the optimum lies in [{}, {}]; the upper bound is {}'s schedule, run verified\n",
                       r.lower_bound, r.upper_bound ? std::to_string(*r.upper_bound) : std::string("?"),
                       r.upper_source.empty() ? "no" : r.upper_source);
  }
  if (!o.schedule_note.empty()) out += fmt::format("(no schedule given: {})\n", o.schedule_note);
  out += fmt::format("wall time: {:.2f} s\n", r.seconds);
  return out;
}

/// The total exchange's front: one line per point, the one-packet exchange and the crossovers.
std::string exchange_text(const api::OptimalOutcome& o) {
  const auto& f = *o.found;
  if (f.pareto.empty()) {
    return fmt::format("no uniform total exchange found on {} ({}; {} states, {:.2f} s)\n", o.request.topology.spec(),
                       f.timed_out ? "time limit" : "none within --max-steps", f.explored, f.seconds);
  }
  constexpr std::size_t MOVES_SHOWN = 24;  // generators printed per point before "…"
  std::string out = fmt::format(
      "total exchange on {} ({}): Pareto front of uniform combining exchanges (steps, volume = packets every node "
      "sends)\n  {:>5} {:>8}  {:<10} {:<8} {:<22} generators\n",
      o.request.topology.spec(), plural(o.nodes, "node", "nodes"), "steps", "volume", "searched", "verified",
      "one-packet faster for");
  for (const auto& p : f.pareto) {
    const auto c = p.crossover(f.status);
    const std::string moves =
        p.moves.size() <= MOVES_SHOWN
            ? fmt::format("{}", fmt::join(p.moves, " "))
            : fmt::format("{} … ({} in all)", fmt::join(p.moves.begin(), p.moves.begin() + MOVES_SHOWN, " "),
                          p.moves.size());
    out += fmt::format("  {:>5} {:>8}  {:<10} {:<8} {:<22} {}\n", p.dimensions.size(), p.volume,
                       p.exhaustive ? "exhaustive" : "beam", p.verified ? "yes" : "NO",
                       c ? fmt::format("m > αβ·{}", c->to_string()) : std::string("never"), moves);
  }
  out += fmt::format("  one packet per message: {} steps, volume {} (the status s: no exchange sends fewer packets)\n",
                     f.status, f.status);
  out += fmt::format("  {}; {} states, {:.2f} s\n",
                     f.pareto_complete ? "the front reaches volume s: complete"
                                       : f.timed_out ? "time limit: the front stops here" : "the front stops here",
                     f.explored, f.seconds);
  return out;
}

std::string class_text(const api::OptimalOutcome& o) {
  if (o.request.collective == api::Collective::ALLTOALL) return exchange_text(o);
  const auto& f = *o.found;
  const std::string what = fmt::format("{} {}", f.klass, o.request.collective == api::Collective::BROADCAST ? "broadcast"
                                                                                                           : "gossip");
  if (f.steps.empty()) {
    return fmt::format("no {} found on {} ({}; {} search nodes, {:.2f} s)\n", what, o.request.topology.spec(),
                       f.timed_out ? "time or memory limit" : "none within --max-steps", f.explored, f.seconds);
  }
  std::string out = fmt::format("{} on {}: {}{}\n", what, o.request.topology.spec(), plural(f.steps.size(), "step", "steps"),
                                f.paper_steps > 0 ? fmt::format(" (the paper: {})", f.paper_steps) : "");
  // Steps from 0, as the emulator, its errors and the schedule files number them.
  for (std::size_t t = 0; t < f.steps.size(); ++t) out += fmt::format("  step {:>2}: {}\n", t, f.steps[t]);
  out += fmt::format("  {}\n", f.proved_minimal ? "proved minimal in its class (exhaustive search)"
                                                : "found, not proved minimal");
  out += fmt::format("  {} by step: {}; items received per node: {}\n", f.meta ? "message" : "largest message",
                     fmt::join(f.largest_per_step, " "), f.items_received);
  out += fmt::format("  {}; {} search nodes, {:.2f} s\n",
                     o.verified ? f.meta ? "verified on the emulator with meta messages (strict; every node received "
                                           "N − 1 items from the right partners)"
                                         : "verified on the emulator (strict; every node holds every item it must)"
                                : "NOT verified",
                     f.explored, f.seconds);
  return out;
}

api::OptimalRequest make_request(const OptimalOptions& o, const CLI::App& cmd) {
  const auto given = [&cmd](const char* flag) { return cmd.get_option(flag)->count() > 0; };
  api::OptimalRequest r;
  r.topology = o.topology;
  r.collective = api::parse_collective(o.collective);
  r.root = o.root;
  r.ports = api::port_model(o.ports, o.duplex);
  r.time_limit = o.time_limit;
  r.proof_dir = o.proof;
  r.method = api::parse_method(o.method);
  if (given("--beam-width")) r.beam_width = o.beam_width;
  if (given("--max-steps")) r.max_steps = o.max_steps;
  r.anytime = o.anytime;
  return r;
}

int single(const OptimalOptions& o, const CLI::App& cmd) {
  if (o.topology.empty()) throw UsageError("--topology is required (e.g. --topology star:4), or use --study star");
  const auto request = make_request(o, cmd);
  if (!o.output.empty() && request.method != api::OptimalMethod::SAT &&
      request.topology.topology()->num_nodes() > api::MAX_UNIFORM_SCHEDULE_NODES) {
    throw UsageError(fmt::format("-o: a schedule is written up to {} nodes; {} has {}", api::MAX_UNIFORM_SCHEDULE_NODES,
                                 o.topology, request.topology.topology()->num_nodes()));
  }
  const auto outcome = api::find_optimal(request);
  if (!o.output.empty() && outcome.found && !outcome.found->pareto.empty()) {
    // One file per point of the front: FILE.T<steps>.json.
    const std::filesystem::path path(o.output);
    for (std::size_t i = 0; i < outcome.found->pareto.size(); ++i) {
      const auto& p = outcome.found->pareto[i];
      const auto file = (path.parent_path() / fmt::format("{}.T{}{}", path.stem().string(), p.dimensions.size(),
                                                          path.extension().string()))
                            .string();
      write_file_atomically(file, api::schedule_text(api::exchange_point_schedule(outcome, i),
                                                     fmt::format("a total exchange of {} steps, volume {}, found by "
                                                                 "starnet optimal --method uniform",
                                                                 p.dimensions.size(), p.volume),
                                                     file));
    }
  } else if (!o.output.empty()) {
    if (!outcome.schedule) {
      throw UsageError(fmt::format("-o {}: there is no {} schedule to write: {}", o.output,
                                   to_string(request.collective), outcome.schedule_note));
    }
    const std::string how = outcome.schedule_proved
                                ? outcome.sat ? "proved optimal" : "minimal in its class"
                                : "the best known, NOT proved optimal: the time limit left a bracket";
    write_file_atomically(o.output, api::schedule_text(*outcome.schedule,
                                                       fmt::format("a {} from {}, {}, found by starnet optimal",
                                                                   to_string(request.collective),
                                                                   outcome.schedule->source, how),
                                                       o.output));
  }
  if (o.json) {
    print_json(outcome.to_json());
  } else {
    std::cout << (outcome.sat ? sat_text(outcome) : class_text(outcome));
  }
  return outcome.exit_code();
}

int study(const OptimalOptions& o, const CLI::App& cmd) {
  const std::optional<double> seconds =
      cmd.get_option("--time-limit")->count() > 0 ? std::optional<double>(o.time_limit) : std::nullopt;
  if (o.study == "star-beyond") {
    const auto s = api::optimal_study_beyond(seconds);
    if (!o.csv.empty()) write_file_atomically(o.csv, s.csv());
    if (o.json) {
      print_json(s.to_json());
      return s.verified ? 0 : 1;
    }
    std::cout << fmt::format("{:>2} {:>9} {:>6} {:>8} {:>7} {:>6} {:>9} {:>6} {:>9} {:>12} {:>12} {:>8}\n", "n", "n!",
                             "paper", "uniform", "proved", "coset", "SAT", "log2n!", "largest", "αβ small", "αβ large",
                             "seconds");
    for (const auto& r : s.rows) {
      const auto largest = r.items.empty() ? 0 : *std::max_element(r.items.begin(), r.items.end());
      std::cout << fmt::format(
          "{:>2} {:>9} {:>6} {:>8} {:>7} {:>6} {:>9} {:>6} {:>9} {:>5.1f}/{:<6.1f} {:>5.0f}/{:<6.0f} {:>8.2f}\n", r.n,
          r.nodes, r.paper_steps, fmt::format("{}{}", r.dimensions.size(), r.verified ? "" : "!"),
          r.proved ? "yes" : "no", r.coset, r.sat.empty() ? "-" : r.sat, r.log2_bound, largest, r.alpha_beta_small_paper,
          r.alpha_beta_small_uniform, r.alpha_beta_large_paper, r.alpha_beta_large_uniform, r.seconds);
    }
    std::cout << "αβ: time of the paper's schedule / of the uniform one with α = 1, β = 1, items of size 1/1024 "
                 "(small) and 1 (large)\ncoset: the shortest coset schedule found (* proved minimal in the class; "
                 "S_5: beam of width 1000)\n"
              << (s.verified ? "every uniform gossip above ran verified on the emulator (S_7..S_10 with meta messages)\n"
                             : "NOT VERIFIED: the uniform gossips marked ! failed on the emulator\n");
    return s.verified ? 0 : 1;
  }
  if (o.study != "star") throw UsageError(fmt::format("--study {}: expected star or star-beyond", o.study));
  const auto s = api::optimal_study_star(seconds);
  if (!o.csv.empty()) write_file_atomically(o.csv, s.csv());
  if (o.json) {
    print_json(s.to_json());
    return s.exit_code();
  }
  std::cout << fmt::format("{:<12} {:>5} {:<5} {:<22} {:>9} {:>5} {:>5} {:>5} {:>5} {:>8}\n", "topology", "nodes",
                           "duplex", "built-in (steps)", "optimum", "diam", "count", "deg", "fib", "seconds");
  for (const auto& row : s.rows) {
    const auto& r = row.result;
    const auto bound = [&r](const char* name) {
      for (const auto& b : r.bounds) {
        if (b.name == name) return std::to_string(b.steps);
      }
      return std::string();
    };
    const std::string builtin = r.builtin_steps ? fmt::format("{} ({})", r.builtin, *r.builtin_steps) : "none";
    const std::string optimum =
        r.optimum ? std::to_string(*r.optimum)
                  : fmt::format("[{},{}]", r.lower_bound, r.upper_bound ? std::to_string(*r.upper_bound) : "?");
    std::cout << fmt::format("{:<12} {:>5} {:<5} {:<22} {:>9} {:>5} {:>5} {:>5} {:>5} {:>8.2f}\n", row.spec, row.nodes,
                             row.half ? "half" : "full", builtin, optimum, bound("distance"), bound("counting"),
                             bound("degree-limited"), bound("fibonacci"), r.seconds);
  }
  if (!s.verified) std::cout << "time limit: the rows with a bracket [lower, upper] are not proved\n";
  return s.exit_code();
}

}  // namespace

void declare_optimal_command(CLI::App& cmd, Action& action) {
  static OptimalOptions o;
  cmd.add_option("--collective", o.collective,
                 "gossip (= allgather), allreduce (messages of several values: the same search, the schedule written "
                 "as an all-reduce), broadcast (from --root), or alltoall (with --method uniform: the Pareto front "
                 "of steps and volume of the total exchange, docs/collectives.md)")
      ->capture_default_str();
  auto* topology = cmd.add_option("--topology", o.topology,
                                  fmt::format("Topology spec or file (SAT: at most {} nodes)", api::MAX_EXACT_NODES));
  cmd.add_option("--root", o.root, "Root of broadcast: a node name or index")->capture_default_str();
  cmd.add_option("--ports", o.ports, fmt::format("Ports per node k in 1..{}", api::MAX_PORTS))->capture_default_str();
  cmd.add_option("--duplex", o.duplex, "full (k sends and k receives per step) or half (k transfers in all)")
      ->check(CLI::IsMember({"full", "half"}))
      ->capture_default_str();
  cmd.add_option("--time-limit", o.time_limit,
                 "Seconds for the whole search, then the proven bracket and the best schedule known (0: no limit; "
                 "--study: per instance)")
      ->capture_default_str()
      ->check(finite_number(0));
  cmd.add_flag("--json", o.json, "Print one JSON document");
  cmd.add_option("-o,--output", o.output,
                 "Write the optimal schedule (starnet schedule format; MSCCL XML for FILE ending in .xml) to FILE; when the time limit leaves a bracket, "
                 "the best schedule known, marked unproved; alltoall: one file per Pareto point, FILE.T<steps>.json")
      ->check(output_file());
  cmd.add_option("--proof", o.proof, "Write each UNSAT's CNF and DRAT proof to DIR and check every proof");
  cmd.add_option("--method", o.method,
                 fmt::format("sat (exact, any topology ≤ {0} nodes); uniform (Cayley graphs: star:N, pancake:N, "
                             "bubblesort:N and transposition:N up to N = 10, hypercube, ring, torus, complete; every "
                             "node uses the same generator each step); coset (star:3..6: the dimension depends on the "
                             "node's last symbol); auto (sat up to {0} nodes, its upper bound from the uniform search; "
                             "uniform beyond). docs/beyond.md",
                             api::MAX_EXACT_NODES))
      ->check(CLI::IsMember({"sat", "uniform", "coset", "auto"}))
      ->capture_default_str();
  cmd.add_option("--beam-width", o.beam_width, "--method uniform|coset: beam search of this width instead of exhaustive");
  cmd.add_option("--max-steps", o.max_steps,
                 "--method uniform|coset: longest schedule searched (default n(n−1)/2 on star:N, |G| − 1 elsewhere)");
  cmd.add_flag("--anytime", o.anytime,
               "--method uniform: beam searches of width 1, 2, 4, … until --time-limit, keeping the shortest found");
  auto* study_option =
      cmd.add_option("--study", o.study,
                     "star: S_3..S_5, Q_3, Q_4, K_n, rings and tori, full and half duplex; star-beyond: uniform "
                     "gossips on S_3..S_10 beside the paper (docs/beyond.md)")
          ->check(CLI::IsMember({"star", "star-beyond"}));
  study_option->excludes(topology);
  cmd.add_option("--csv", o.csv, "With --study: also write the table as CSV to FILE")
      ->check(output_file())
      ->needs(study_option);
  cmd.callback([&action, &cmd] {
    action = [&cmd] {
      applies_only(cmd, "--root", o.collective == "broadcast", "--collective broadcast");
      return o.study.empty() ? single(o, cmd) : study(o, cmd);
    };
  });
}

}  // namespace starnet::tools
