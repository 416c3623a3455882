// The subcommands of `starnet`, one table: each one's name and help beside the function of its
// tools/*_command.cpp that declares its options and its action.
#include "command.hpp"

namespace starnet::tools {
namespace {

struct Subcommand {
  const char* name;
  const char* help;
  void (*declare)(CLI::App& cmd, Action& action);
};

/// In the order `starnet --help` lists them.
const Subcommand SUBCOMMANDS[] = {
    {"topo", "Inspect topologies: star graphs S_n, families and weighted platforms", declare_topo_command},
    {"allreduce",
     "All-reduce on the star graph S_n (Oh, Choi, Primeaux 2005) in n(n−1)/2 single-port steps, every node's "
     "final value verified. Exit 1 if a node is wrong or the step count is not n(n−1)/2.",
     declare_allreduce_command},
    {"broadcast",
     "All-to-all broadcast on S_n (Oh, Choi, Primeaux 2005, Section 3; NODUP, meta messages) in n(n−1)/2 steps: "
     "every node ends with every node's item exactly once (verified). Exit 1 otherwise.",
     declare_broadcast_command},
    {"demo",
     "The headline run: the all-reduce on S_5 over the zmq engine with 2 workers, level by level, verified",
     declare_demo_command},
    {"worker",
     "A zmq worker process: started by the coordinator of --engine zmq --processes, or by you (ssh, srun) with "
     "--join to a coordinator started with --listen",
     declare_worker_command},
    {"keygen",
     "Write a run's key file (ZeroMQ CURVE, mode 0600) for workers that join a --listen run",
     declare_keygen_command},
    {"viz",
     "Teaching pages: a self-contained HTML page (no network) that steps through a star collective on S_N, "
     "N ≤ 5, drawn from the emulator's trace (docs/viz.md)",
     declare_viz_command},
    {"markov",
     "Exact E[T] and Var[T] of Tree-dyn's completion time T when every transfer time is exponential\n"
     "(rate L, mean 1/L) and computations are free: first-step analysis of the Markov chain whose\n"
     "states are (transfers in progress, processor waiting in the slot) (Benoit, Canon, Marchal,\n"
     "HeteroPar 2013, Section 3). Results are exact fractions, checked against the closed form\n"
     "E[T] = (2H(k) - [n even]/k)/L, Var[T] = (2H2(k) - [n even]/k^2)/L^2 with k = floor(n/2).\n"
     "(The paper prints (2H(n/2) + 2/n)/L for even n: a sign typo; see docs/stochastic.md.)\n"
     "Exit codes: 0 success, 1 the check failed, 2 bad input.",
     declare_markov_command},
    {"reduce",
     "Reduction trees with transfers (cost d) overlapping computations (cost c), Canon and Antoniu\n"
     "(INRIA RR-7898, 2012): plan one reduction of n elements, check the plan against the model\n"
     "(one transfer at a time per machine, a transfer only once the sender's result is complete) and\n"
     "fold it with --op to check it combines v0 + v1 + ... + v(n-1) in order, then run it on the emulator\n"
     "(transfers at their planned times, strict single-port half-duplex): verified only if the emulated\n"
     "length equals the predicted length exactly and the root holds v0 + ... + v(n-1); or run the\n"
     "Figure 2 study.\n"
     "  starnet reduce --algo greedy --n 10 --d 3/2 --c 1 [--json]\n"
     "  starnet reduce --study figure2 [--max-n 10000] [--csv ratios.csv] [--plot ratios.svg]\n"
     "Exit codes: 0 success, 1 a check failed, 2 bad input.",
     declare_reduce_command},
    {"steady",
     "Steady-state series of collectives (Legrand, Marchal, Robert 2004): the optimal throughput TP as an exact "
     "fraction, certified by an LP dual, and a periodic schedule of one-port matchings achieving it. Exit 1 if "
     "a certificate check fails, 3 if the LP solver fails.",
     declare_steady_command},
    {"montecarlo",
     "Non-clairvoyant reductions (Benoit, Canon, Marchal, CCPE 2014) on the emulator with random\n"
     "heterogeneous costs: Binomial-stat, Fibonacci-stat, Tree-dyn, Non-Commut-Tree-dyn, every run\n"
     "verified. Three modes:\n"
     "  one scenario:  --algos LIST --n N --dist NAME --cv X --mu-d M --mu-c M --runs R --seed S\n"
     "                 (summary per algorithm; --gantt FILE.svg --run I draws one run)\n"
     "  a study:       --study figure4|figure5|figure6 [--runs R] [--csv FILE] [--plot FILE]\n"
     "                 (the paper's figures, with its statements checked on the data)\n"
     "  worst cases:   --worst-case (the instances of Section 4 reaching Table I's ratios)\n"
     "Same --seed, same numbers whatever --threads. Exit codes: 0 success, 1 a run was not\n"
     "verified (or a worst case broke its proven bound), 2 bad input. See docs/montecarlo.md.",
     declare_montecarlo_command},
    {"whatif",
     "What if the machine were another topology, had more ports, other link costs, failed links? Runs one collective "
     "on each topology under each port model and fault scenario with every algorithm that applies (star all-reduce "
     "on star:N, recursive doubling and halving, ring, Bruck, the uniform gossip, the total exchanges on Cayley "
     "graphs, dimension-ordered on products and meshes, the split all-reduces of a long vector, a greedy BFS tree "
     "everywhere and a tree that weighs link costs and ports in timed runs: docs/collectives.md; with routers, routed "
     "trees among the processors), verifies every node (every processor) on the emulator and prints the "
     "steps, volume and time beside a lower bound (docs/whatif.md). Exit 1 if a run is not verified (a collective "
     "that did not reach every alive node is not), 4 if no row ran.",
     declare_whatif_command},
    {"schedule",
     "Collective schedules as data: run a starnet JSON or MSCCL XML schedule "
     "on the emulator and check it, export a built-in algorithm, or convert a schedule to MSCCL XML for GPU "
     "runtimes (docs/schedules.md, docs/gpu.md)",
     declare_schedule_command},
    {"optimal",
     "Exact minimum step counts in the single-port (k-port) model by SAT (CaDiCaL), proved both ways: the schedule "
     "of the optimum runs verified on the emulator, every shorter T is refuted (CryptoMiniSat confirms; --proof "
     "checks DRAT proofs). Exit 3 with the proven bracket when --time-limit is reached (docs/optimal.md)",
     declare_optimal_command},
};

}  // namespace

void add_subcommands(CLI::App& app, Action& action) {
  for (const auto& s : SUBCOMMANDS) s.declare(*app.add_subcommand(s.name, s.help), action);
}

}  // namespace starnet::tools
