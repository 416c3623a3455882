#pragma once
/// @file
/// The star graph S_n as an implicit graph.
///
/// S_n (Akers, Harel, Krishnamurthy 1987; Oh, Choi, Primeaux 2005, Section 2) has one node per
/// permutation of the symbols 1..n; link k (k = 2..n) joins a node to the one whose label
/// swaps the first and the k-th symbols. It is (n-1)-regular, has n! nodes, n!(n-1)/2 links and
/// diameter floor(3(n-1)/2).
///
///          S_3:   123 --2-- 213           sub-stars S_2^i share the last symbol i:
///                  |3        |3             {123, 213} = S_2^3, {132, 312} = S_2^2,
///                 321       312             {231, 321} = S_2^1; link 3 joins them.
///                  |2        |2
///                 231 --3-- 132
///
/// A vertex is the rank of its permutation, in an order chosen for locality: the rank reads the
/// Lehmer code from the last position, so every sub-star S_m (the nodes that share positions
/// m+1..n) is the contiguous rank range [r·m!, (r+1)·m!). Rank 0 is the identity 12…n. Nothing
/// is stored per vertex or edge: a label is decoded from the rank in O(n²) with n ≤ 12, and each
/// neighbour follows from the label in O(n).
///
/// The class models the Boost.Graph concepts VertexListGraph, IncidenceGraph and AdjacencyGraph
/// (undirected), with the identity as vertex_index map, so that BGL algorithms such as
/// boost::breadth_first_search run on it directly.
///
/// IMPORTANT: n is limited to 1..12 (12! < 2^32 keeps a vertex in 32 bits); it is the caller's
/// job to keep memory for per-vertex maps in check (S_12 has 479,001,600 vertices).

#include <starnet/topology/topology.hpp>

#include <array>
#include <cstdint>
#include <string>

namespace starnet::topology {

class StarGraph final : public Topology {
 public:
  using vertex_descriptor = std::uint32_t;
  static constexpr int MAX_N = 12;
  /// A permutation of 1..n in positions 0..n-1 (position 0 is the paper's first symbol).
  using Label = std::array<std::uint8_t, MAX_N>;

  /// @param n dimension, 1 ≤ n ≤ 12.
  /// @throws TopologyError naming n and the accepted range otherwise.
  explicit StarGraph(int n);

  [[nodiscard]] int n() const { return n_; }
  /// n! @return number of vertices.
  [[nodiscard]] std::uint32_t size() const { return size_; }
  /// The permutation of vertex @p v. @pre v < size().
  [[nodiscard]] Label label(vertex_descriptor v) const;
  /// The rank of a permutation of 1..n. @pre @p label is a permutation of 1..n.
  [[nodiscard]] vertex_descriptor rank(const Label& label) const;
  /// Neighbour of @p v along link @p k (swap of symbols 1 and k), 2 ≤ k ≤ n. O(n²).
  [[nodiscard]] vertex_descriptor neighbor_along(vertex_descriptor v, int k) const;
  /// The same from v's label decoded once: O(k). Breadth-first search over S_n decodes each
  /// label once and asks for its n-1 neighbours this way. @pre @p label == label(v).
  [[nodiscard]] vertex_descriptor neighbor_along(vertex_descriptor v, const Label& label, int k) const;
  /// First vertex of the sub-star S_m that contains @p v: the nodes sharing positions m+1..n of
  /// v's label form the rank range [substar_begin(v, m), substar_begin(v, m) + m!).
  [[nodiscard]] vertex_descriptor substar_begin(vertex_descriptor v, int m) const;
  /// The symbol in the last position of v's label: v lies in the paper's S_{n-1}^i, i = this.
  [[nodiscard]] int last_symbol(vertex_descriptor v) const;
  /// ⌊3(n−1)/2⌋, the largest distance (Akers, Harel, Krishnamurthy 1987).
  [[nodiscard]] int diameter() const { return 3 * (n_ - 1) / 2; }
  /// "1234"-style label for n ≤ 9, "1.2.10.11"-style (dot separated) above.
  [[nodiscard]] std::string label_string(vertex_descriptor v) const;
  /// Positions 0..length−1 of @p label written as label_string() writes a label of symbols 1..n
  /// (arrangement_graph.hpp names arrangements this way too).
  [[nodiscard]] static std::string label_text(const Label& label, int length, int n);
  /// m! for 0 ≤ m ≤ 12.
  [[nodiscard]] static std::uint64_t factorial(int m);

  // Topology: port p is link k = p + 2.
  [[nodiscard]] std::string name() const override;
  [[nodiscard]] NodeId num_nodes() const override { return size_; }
  [[nodiscard]] Port degree(NodeId) const override { return static_cast<Port>(n_ - 1); }
  [[nodiscard]] NodeId neighbor(NodeId v, Port port) const override;
  [[nodiscard]] Port find_port(NodeId v, NodeId u) const override;
  /// Link k joins v and its neighbour along k at port k − 2 of both.
  [[nodiscard]] Port back_port(NodeId /*v*/, Port port) const override { return port; }
  [[nodiscard]] std::string node_name(NodeId v) const override { return label_string(static_cast<vertex_descriptor>(v)); }
  [[nodiscard]] std::string link_name(NodeId v, Port port) const override;
  [[nodiscard]] Rational link_cost(NodeId, Port) const override { return 1; }
  [[nodiscard]] Rational speed(NodeId) const override { return 1; }
  /// Link dimension k of a port, and back.
  static constexpr int dimension_of(Port port) { return static_cast<int>(port) + 2; }
  static constexpr Port port_of(int k) { return static_cast<Port>(k - 2); }

 private:
  int n_;
  std::uint32_t size_;
};

}  // namespace starnet::topology

#include <starnet/topology/star_graph_bgl.hpp>
