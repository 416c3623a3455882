#pragma once
/// @file
/// The vocabulary, limits and defaults every call of starnet::api shares, in one place, so that
/// the command line and the Python module mean the same thing by the same word (docs/architecture.md):
/// ports, duplex, collectives, node values, roots, lists, engines.
///
/// Errors about a setting carry it (starnet::Setting, core/error.hpp) under its name here, which
/// is the Python keyword; the command line names the flag (`ports` → `--ports`, tools/options.cpp).
/// A message that names another setting writes it «like_this», which each face rewrites in its own
/// words (`--like-this`, `like_this=`).

#include <starnet/algorithms/collective.hpp>
#include <starnet/algorithms/generic/cost_kind.hpp>
#include <starnet/algorithms/star/star_report.hpp>
#include <starnet/core/rational.hpp>
#include <starnet/emulator/config.hpp>

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace starnet::api {

using algorithms::Collective;
/// "allreduce, reduce, broadcast, allgather, gather, scatter, reducescatter or alltoall": every
/// collective a request may name, for help texts.
using algorithms::collective_choices;
using algorithms::star::Op;

/// @p message with each setting it names «like_this» written as @p word(like_this) says: the
/// command line's flag, the Python module's keyword.
[[nodiscard]] std::string name_settings(std::string_view message,
                                        const std::function<std::string(std::string_view)>& word);

/// Most ports a node may have (k-port model), in every call.
inline constexpr unsigned MAX_PORTS = 1024;
/// More workers than any machine starnet targets has cores; worker threads hold a socket per pair.
inline constexpr unsigned MAX_WORKERS = 256;
/// More threads than any machine starnet targets has cores; beyond, thread creation fails.
inline constexpr unsigned MAX_THREADS = 1024;
/// The root of rooted collectives (reduce, broadcast, gather, scatter) when none is given: node 0.
inline constexpr std::string_view DEFAULT_ROOT = "0";

/// @p ports k ≥ 1 and @p duplex "full" or "half" as a port model.
/// @throws UsageError about setting "ports" (k outside 1..MAX_PORTS) or "duplex".
[[nodiscard]] emulator::PortModel port_model(long ports, std::string_view duplex);
/// "full" or "half".
[[nodiscard]] std::string duplex_name(const emulator::PortModel& model);

/// Splits a comma-separated list: spaces around items are dropped, commas inside parentheses kept
/// ("(0,1)-(0,2), 3-4" gives "(0,1)-(0,2)" and "3-4"), empty items dropped.
[[nodiscard]] std::vector<std::string> split_list(std::string_view text);

/// A collective by name: allreduce, reduce, broadcast, allgather (or gossip), gather, scatter,
/// reducescatter, alltoall. @throws UsageError about @p setting naming the choices.
[[nodiscard]] Collective parse_collective(std::string_view text, std::string_view setting = "collective");

/// The operators' names, as parse_op() takes them.
inline constexpr std::array<std::string_view, 4> OP_NAMES = {"sum", "min", "max", "xor"};
/// An operator by name: sum, min, max, xor. @throws UsageError about @p setting.
[[nodiscard]] Op parse_op(std::string_view text, std::string_view setting = "op");

/// What the nodes (or chunks) start with: `index` (item i holds i + 1: node rank + 1 for one value
/// per node, contribution id + 1 for chunks; `rank` is the same word) or `random` (seeded words).
enum class ValuesKind : std::uint8_t { INDEX, RANDOM };
/// The names parse_values() takes.
inline constexpr std::array<std::string_view, 3> VALUES_NAMES = {"index", "rank", "random"};
/// @throws UsageError about setting "values" for anything but index, rank or random.
[[nodiscard]] ValuesKind parse_values(std::string_view text);
[[nodiscard]] std::string to_string(ValuesKind kind);
[[nodiscard]] algorithms::star::Values make_values(ValuesKind kind, std::uint64_t seed);

/// What every node (or chunk) starts with and how the values combine, as a run's request holds
/// it: the operator, the kind of values, and the seed of ValuesKind::RANDOM. Each request gives
/// its own default kind where it declares the member (a schedule run: random; a star run: index).
struct NodeValues {
  Op op = Op::SUM;
  ValuesKind kind = ValuesKind::INDEX;
  std::uint64_t seed = 1;
};
[[nodiscard]] algorithms::star::Values make_values(const NodeValues& values);

/// An exact number such as "3", "7/2", "0.25" or "1e-6" (a decimal exponent in -18..18).
/// @throws UsageError about @p setting when it is not one, when its exponent is beyond ±18, or when
/// it is not ≥ @p at_least (> it with @p strictly).
[[nodiscard]] Rational parse_number(std::string_view text, std::string_view setting, Rational at_least = 0,
                                    bool strictly = false);

/// What a transfer of a node program or a schedule costs: one step each (unit), or the topology's
/// link costs, speeds and latencies — α–β on every link where latency and bandwidth are given
/// (timed). The what-if study's kinds (generic/cost_kind.hpp), of which a run takes two.
using RunCosts = algorithms::generic::CostKind;
/// "unit" or "topology" (a run draws no random costs). @throws UsageError about setting "costs".
[[nodiscard]] RunCosts parse_run_costs(std::string_view text);

/// "strict" or "arbitrated" (emulator/config.hpp). @throws UsageError about @p setting otherwise.
[[nodiscard]] emulator::Checking parse_checking(std::string_view text, std::string_view setting = "checking");

/// A time limit in seconds, as both faces take it: finite and ≥ 0 (0: none).
/// @throws UsageError about @p setting otherwise.
void check_seconds(std::optional<double> seconds, std::string_view setting);

}  // namespace starnet::api
