#include "viz_layout.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace starnet::tools {

namespace {

struct Placer {
  std::vector<double> radius;  ///< R_m
  std::vector<double> extent;  ///< E_m
  double outline_pad = 0;
  StarLayout& out;
  std::vector<Point>& axes;  ///< per outline: the unit vector from its parent's centre to its own

  void place(int m, std::uint32_t begin, Point center, double angle) {
    if (m == 1) {
      out.nodes[begin] = center;
      return;
    }
    if (static_cast<std::size_t>(m) + 1 < extent.size()) {
      out.substars.push_back({m, begin, center, extent[static_cast<std::size_t>(m)] + outline_pad});
      axes.push_back({std::cos(angle + std::numbers::pi / 2), std::sin(angle + std::numbers::pi / 2)});
    }
    const auto block = static_cast<std::uint32_t>(topology::StarGraph::factorial(m - 1));
    for (int j = 0; j < m; ++j) {
      const double phi = angle + 2 * std::numbers::pi * j / m;
      const Point c{center.x + radius[static_cast<std::size_t>(m)] * std::cos(phi),
                    center.y + radius[static_cast<std::size_t>(m)] * std::sin(phi)};
      place(m - 1, begin + static_cast<std::uint32_t>(j) * block, c, phi - std::numbers::pi / 2);
    }
  }
};

double total_link_length(const topology::StarGraph& g, const std::vector<Point>& nodes) {
  double sum = 0;
  for (topology::StarGraph::vertex_descriptor v = 0; v < g.size(); ++v) {
    for (int k = 2; k <= g.n(); ++k) {
      const auto u = g.neighbor_along(v, k);
      if (u > v) sum += std::hypot(nodes[u].x - nodes[v].x, nodes[u].y - nodes[v].y);
    }
  }
  return sum;
}

/// p mirrored across the line through c along the unit vector a.
Point reflect(Point p, Point c, Point a) {
  const double dx = p.x - c.x;
  const double dy = p.y - c.y;
  const double along = dx * a.x + dy * a.y;
  return {c.x + 2 * along * a.x - dx, c.y + 2 * along * a.y - dy};
}

/// Which way round a block is drawn is arbitrary; mirroring a block across its axis (the line
/// from its parent's centre through its own) keeps every outline in place and can shorten the
/// links that leave it: in S_3 it turns a crossed figure into the hexagon of the paper's Figure 1.
/// Greedy, largest blocks first, two passes: deterministic, O(blocks · n!·n).
void untangle(const topology::StarGraph& g, StarLayout& out, std::vector<Point>& axes) {
  double best = total_link_length(g, out.nodes);
  for (int pass = 0; pass < 2; ++pass) {
    for (std::size_t i = 0; i < out.substars.size(); ++i) {
      const SubstarOutline o = out.substars[i];
      const Point axis = axes[i];
      const auto end = o.begin + static_cast<std::uint32_t>(topology::StarGraph::factorial(o.m));
      const auto mirror = [&] {
        for (auto v = o.begin; v < end; ++v) out.nodes[v] = reflect(out.nodes[v], o.center, axis);
        for (std::size_t j = 0; j < out.substars.size(); ++j) {
          auto& inner = out.substars[j];
          if (inner.m >= o.m || inner.begin < o.begin || inner.begin >= end) continue;
          inner.center = reflect(inner.center, o.center, axis);
          const Point tip = reflect({o.center.x + axes[j].x, o.center.y + axes[j].y}, o.center, axis);
          axes[j] = {tip.x - o.center.x, tip.y - o.center.y};
        }
      };
      mirror();
      const double length = total_link_length(g, out.nodes);
      if (length < best - 1e-9) {
        best = length;
      } else {
        mirror();  // a reflection undoes itself
      }
    }
  }
}

}  // namespace

StarLayout star_layout(const topology::StarGraph& g, double node_radius, double gap, double pair_gap, double margin) {
  const int n = g.n();
  StarLayout out;
  out.nodes.resize(g.size());
  std::vector<Point> axes;
  Placer placer{std::vector<double>(static_cast<std::size_t>(n) + 1, 0.0),
                std::vector<double>(static_cast<std::size_t>(n) + 1, node_radius), gap / 4, out, axes};
  for (int m = 2; m <= n; ++m) {
    const auto i = static_cast<std::size_t>(m);
    placer.radius[i] = (placer.extent[i - 1] + (m == 2 ? pair_gap : gap) / 2) / std::sin(std::numbers::pi / m);
    placer.extent[i] = placer.radius[i] + placer.extent[i - 1];
  }
  const double half = placer.extent[static_cast<std::size_t>(n)] + margin;
  placer.place(n, 0, {half, half}, -std::numbers::pi / 2);
  untangle(g, out, axes);
  // Larger sub-stars first: SVG draws later outlines on top.
  std::stable_sort(out.substars.begin(), out.substars.end(),
                   [](const SubstarOutline& a, const SubstarOutline& b) { return a.m > b.m; });
  out.width = 2 * half;
  out.height = 2 * half;
  return out;
}

}  // namespace starnet::tools
