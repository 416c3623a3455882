// Pancake, bubble-sort, transposition, (n,k)-star and arrangement graphs (arrangement_graph.hpp).
#include <starnet/core/error.hpp>
#include <starnet/topology/arrangement_graph.hpp>
#include <starnet/topology/families.hpp>

#include "family_bounds.hpp"

#include <fmt/format.h>

#include <array>
#include <vector>

namespace starnet::topology {
namespace {

/// How each family is written and named.
struct Family {
  ArrangementRule rule;
  const char* family;
  const char* kind;
  /// The spec's form and an example, for messages.
  const char* pattern;
  const char* example;
  bool takes_k;
};

constexpr std::array<Family, 5> FAMILIES = {{
    {ArrangementRule::PANCAKE, "pancake", "pancake graph", "pancake:N", "pancake:5", false},
    {ArrangementRule::BUBBLE_SORT, "bubblesort", "bubble-sort graph", "bubblesort:N", "bubblesort:5", false},
    {ArrangementRule::TRANSPOSITION, "transposition", "transposition graph", "transposition:N", "transposition:5",
     false},
    {ArrangementRule::NK_STAR, "nkstar", "(n,k)-star graph", "nkstar:N:K", "nkstar:7:3", true},
    {ArrangementRule::ARRANGEMENT, "arrangement", "arrangement graph", "arrangement:N:K", "arrangement:5:2", true},
}};

const Family& family_of(ArrangementRule rule) {
  for (const auto& f : FAMILIES) {
    if (f.rule == rule) return f;
  }
  STARNET_ASSERT(false);
  return FAMILIES[0];
}

/// Smallest n of a family: the (n,k)-star and arrangement graphs need a symbol to spare.
int min_n(const Family& f) { return f.takes_k ? 2 : 1; }
/// Largest k for n symbols: k < n as in both papers (A_{n,n} has no link; S_{n,n} would be S_n,
/// and so is S_{n,n−1}).
int max_k(const Family& f, int n) { return f.takes_k ? n - 1 : n; }

std::string spec_name(const Family& f, int n, int k) {
  return f.takes_k ? fmt::format("{}:{}:{}", f.family, n, k) : fmt::format("{}:{}", f.family, n);
}

/// N (and K) of @p text within the family's ranges. @throws TopologyError naming @p spec otherwise.
std::pair<int, int> checked(const Family& f, std::string_view n_text, std::string_view k_text, const Spec& spec) {
  const auto n = static_cast<int>(parse_spec_integer(n_text, min_n(f), ArrangementGraph::MAX_N, spec,
                                                     fmt::format("N of {}", f.pattern), fmt::format("e.g. {}", f.example)));
  if (!f.takes_k) return {n, n};
  const auto k = static_cast<int>(parse_spec_integer(k_text, 1, max_k(f, n), spec, fmt::format("K of {}", f.pattern),
                                                     fmt::format("K of the N symbols, e.g. {}", f.example)));
  return {n, k};
}

}  // namespace

ArrangementGraph::ArrangementGraph(ArrangementRule rule, int n, int k)
    : rule_(rule), n_(n), k_(k), perms_(std::clamp(n, 1, MAX_N)), size_(0), block_(0) {
  const Family& f = family_of(rule);
  const std::string name = spec_name(f, n, k);
  (void)checked(f, std::to_string(n), std::to_string(k), Spec{name, f.family, ""});
  if (!f.takes_k && k != n) {
    throw TopologyError(fmt::format("topology \"{}\": a {} has arrangements of all N symbols (expected k = n = {})",
                                    name, f.kind, n));
  }
  block_ = static_cast<std::uint32_t>(StarGraph::factorial(n - k));
  size_ = static_cast<std::uint32_t>(StarGraph::factorial(n) / block_);
}

ArrangementGraph ArrangementGraph::of(const Spec& spec) {
  for (const auto& f : FAMILIES) {
    if (spec.family != f.family) continue;
    const auto parts =
        detail::split_argument(spec, ':', f.takes_k ? 2 : 1, fmt::format("{}, e.g. {}", f.pattern, f.example));
    const auto [n, k] = checked(f, parts[0], f.takes_k ? parts[1] : parts[0], spec);
    return {f.rule, n, k};
  }
  throw TopologyError(fmt::format("topology \"{}\" is not a graph of arrangements (expected pancake:N, bubblesort:N, "
                                  "transposition:N, nkstar:N:K or arrangement:N:K)",
                                  spec.text));
}

bool ArrangementGraph::is_family(std::string_view family) {
  return std::any_of(FAMILIES.begin(), FAMILIES.end(), [&](const Family& f) { return family == f.family; });
}

int ArrangementGraph::degree() const {
  switch (rule_) {
    case ArrangementRule::TRANSPOSITION: return n_ * (n_ - 1) / 2;
    case ArrangementRule::ARRANGEMENT: return k_ * (n_ - k_);
    case ArrangementRule::PANCAKE:
    case ArrangementRule::BUBBLE_SORT:
    case ArrangementRule::NK_STAR: break;
  }
  return n_ - 1;  // nkstar: k − 1 i-edges and n − k 1-edges
}

std::string ArrangementGraph::name() const { return spec_name(family_of(rule_), n_, k_); }

std::string ArrangementGraph::kind() const { return family_of(rule_).kind; }

ArrangementGraph::Label ArrangementGraph::label(vertex_descriptor v) const {
  STARNET_ASSERT(v < size_);
  const Label full = perms_.label(v * block_);
  Label out{};
  std::copy_n(full.begin() + (n_ - k_), k_, out.begin());
  return out;
}

ArrangementGraph::vertex_descriptor ArrangementGraph::rank(const Label& label) const {
  // The first permutation of the arrangement's sub-star (file comment of the header).
  Label full{};
  int at = 0;
  for (std::uint32_t rest = missing(label); rest != 0; rest &= rest - 1) {
    full[static_cast<std::size_t>(at++)] = static_cast<std::uint8_t>(std::countr_zero(rest));
  }
  std::copy_n(label.begin(), k_, full.begin() + at);
  return perms_.rank(full) / block_;
}

std::string ArrangementGraph::label_string(vertex_descriptor v) const {
  return StarGraph::label_text(label(v), k_, n_);
}

std::uint32_t ArrangementGraph::missing(const Label& label) const {
  std::uint32_t present = 0;
  for (int i = 0; i < k_; ++i) present |= 1U << label[static_cast<std::size_t>(i)];
  const std::uint32_t all = ((1U << n_) - 1) << 1;  // bits 1..n
  return all & ~present;
}

Platform arrangement_platform(const ArrangementGraph& g) {
  const std::string name = g.name();
  const auto degree = static_cast<std::size_t>(g.degree());
  detail::check_size(name, g.size(), static_cast<std::uint64_t>(g.size()) * degree / 2);
  const bool permutations = g.k() == g.n();
  Platform p(name, /*directed=*/false);
  std::vector<ArrangementGraph::vertex_descriptor> neighbour(g.size() * degree);
  for (ArrangementGraph::vertex_descriptor v = 0; v < g.size(); ++v) {
    const std::string label = g.label_string(v);
    p.add_node({label, Role::PROCESSOR, 1, permutations ? label : ""});
    std::size_t i = v * degree;
    g.for_each_neighbor(g.label(v), [&](const ArrangementGraph::Label& x) { neighbour[i++] = g.rank(x); });
  }
  // Generator by generator, so that an involutive generator is the same port at both ends.
  for (std::size_t port = 0; port < degree; ++port) {
    for (ArrangementGraph::vertex_descriptor v = 0; v < g.size(); ++v) {
      const auto u = neighbour[v * degree + port];
      if (v < u) p.add_link(v, u);
    }
  }
  return p;
}

}  // namespace starnet::topology
