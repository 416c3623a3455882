#include <starnet/api/star_layout.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <queue>
#include <utility>

namespace starnet::api {

namespace {

/// Routing grid cells per clearance: finer finds paths through narrower gaps, coarser is faster;
/// 4 routes every link of S_5 on both drawings.
constexpr double ROUTE_CELLS = 4;

using Vertex = topology::StarGraph::vertex_descriptor;

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

double segment_distance(Point p, Point a, Point b) {
  const double dx = b.x - a.x;
  const double dy = b.y - a.y;
  const double length2 = dx * dx + dy * dy;
  const double t = length2 == 0 ? 0 : std::clamp(((p.x - a.x) * dx + (p.y - a.y) * dy) / length2, 0.0, 1.0);
  return std::hypot(a.x + t * dx - p.x, a.y + t * dy - p.y);
}

/// Calls @p visit(p) on the centres p of the nodes other than the link's own that lie in the box
/// of the segment a–b grown by @p pad (no other node comes within pad of the segment), until it
/// returns false.
template <typename Visit>
void nodes_near(const std::vector<Point>& nodes, const LinkPath& link, Point a, Point b, double pad, Visit&& visit) {
  const double lo_x = std::min(a.x, b.x) - pad;
  const double hi_x = std::max(a.x, b.x) + pad;
  const double lo_y = std::min(a.y, b.y) - pad;
  const double hi_y = std::max(a.y, b.y) + pad;
  for (Vertex w = 0; w < nodes.size(); ++w) {
    const Point p = nodes[w];
    if (w != link.u && w != link.v && p.x >= lo_x && p.x <= hi_x && p.y >= lo_y && p.y <= hi_y) {
      if (!visit(p)) return;
    }
  }
}

/// True when the segment a–b keeps every node that @p link does not join at least @p clearance away.
bool keeps_clear(const std::vector<Point>& nodes, const LinkPath& link, Point a, Point b, double clearance) {
  bool clear = true;
  nodes_near(nodes, link, a, b, clearance, [&](Point p) {
    clear = segment_distance(p, a, b) >= clearance;
    return clear;
  });
  return clear;
}

/// What the orientation of the blocks minimises: (link, node) pairs closer than the clearance
/// on straight links first, total link length next.
struct LayoutCost {
  long conflicts = 0;
  double length = 0;
  [[nodiscard]] bool better_than(const LayoutCost& o) const {
    return conflicts != o.conflicts ? conflicts < o.conflicts : length < o.length - 1e-9;
  }
};

LayoutCost layout_cost(const StarLayout& out, double clearance) {
  LayoutCost cost;
  for (const auto& link : out.links) {
    const Point a = out.nodes[link.u];
    const Point b = out.nodes[link.v];
    cost.length += std::hypot(b.x - a.x, b.y - a.y);
    nodes_near(out.nodes, link, a, b, clearance, [&](Point p) {
      cost.conflicts += segment_distance(p, a, b) < clearance ? 1 : 0;
      return true;
    });
  }
  return cost;
}

/// A rigid motion about a block's centre: the mirror across the line along the unit vector
/// `axis` when `mirrored`, then a turn by `angle`.
struct Motion {
  Point center;
  Point axis;
  bool mirrored = false;
  double angle = 0;

  [[nodiscard]] Point vector(Point d) const {
    if (mirrored) {
      const double along = d.x * axis.x + d.y * axis.y;
      d = {2 * along * axis.x - d.x, 2 * along * axis.y - d.y};
    }
    return {std::cos(angle) * d.x - std::sin(angle) * d.y, std::sin(angle) * d.x + std::cos(angle) * d.y};
  }
  [[nodiscard]] Point point(Point p) const {
    const Point d = vector({p.x - center.x, p.y - center.y});
    return {center.x + d.x, center.y + d.y};
  }
};

/// Moves the nodes of outline @p i, and the outlines and axes inside it, by @p motion.
void move_block(std::size_t i, const Motion& motion, StarLayout& out, std::vector<Point>& axes) {
  const SubstarOutline o = out.substars[i];
  const auto end = o.begin + static_cast<std::uint32_t>(topology::StarGraph::factorial(o.m));
  for (auto v = o.begin; v < end; ++v) out.nodes[v] = motion.point(out.nodes[v]);
  for (std::size_t j = 0; j < out.substars.size(); ++j) {
    auto& inner = out.substars[j];
    if (inner.m >= o.m || inner.begin < o.begin || inner.begin >= end) continue;
    inner.center = motion.point(inner.center);
    axes[j] = motion.vector(axes[j]);
  }
}

/// Which way round a block is drawn is arbitrary. Each block in turn, twice over, takes the
/// position with the lowest LayoutCost among where it is and where @p turning allows: with
/// turning, the 2m positions of a block S_m, m ≥ 3; without, its mirror image. Greedy,
/// deterministic. A clearance of 0 counts no conflicts: the links' length alone decides.
void orient_blocks(StarLayout& out, std::vector<Point>& axes, double clearance, bool turning) {
  LayoutCost best = layout_cost(out, clearance);
  for (int pass = 0; pass < 2; ++pass) {
    for (std::size_t i = 0; i < out.substars.size(); ++i) {
      const int m = out.substars[i].m;
      if (turning && m < 3) continue;
      const StarLayout start = out;
      const std::vector<Point> start_axes = axes;
      StarLayout chosen = out;
      std::vector<Point> chosen_axes = axes;
      for (int turn = 0; turn < (turning ? m : 1); ++turn) {
        for (const bool mirrored : {false, true}) {
          if ((!mirrored && turn == 0) || (!turning && !mirrored)) continue;
          out = start;
          axes = start_axes;
          move_block(i, {out.substars[i].center, axes[i], mirrored, 2 * std::numbers::pi * turn / m}, out, axes);
          const LayoutCost cost = layout_cost(out, clearance);
          if (cost.better_than(best)) {
            best = cost;
            chosen = out;
            chosen_axes = axes;
          }
        }
      }
      out = std::move(chosen);
      axes = std::move(chosen_axes);
    }
  }
}

/// The grid links are routed on (see the header): square cells `step` wide over the drawing,
/// each with the number of nodes whose centre lies within `reach` = clearance + step of its own.
struct RouteGrid {
  double step = 0;
  double reach = 0;
  int cols = 0;
  int rows = 0;
  std::vector<int> crowd;

  RouteGrid(const StarLayout& out, double clearance)
      : step(clearance / ROUTE_CELLS),
        reach(clearance + step),
        cols(static_cast<int>(std::ceil(out.width / step))),
        rows(static_cast<int>(std::ceil(out.height / step))),
        crowd(static_cast<std::size_t>(cols) * static_cast<std::size_t>(rows), 0) {
    for (const Point p : out.nodes) {
      const int x_end = std::min(cols, static_cast<int>((p.x + reach) / step) + 1);
      const int y_end = std::min(rows, static_cast<int>((p.y + reach) / step) + 1);
      for (int y = std::max(0, static_cast<int>((p.y - reach) / step)); y < y_end; ++y) {
        for (int x = std::max(0, static_cast<int>((p.x - reach) / step)); x < x_end; ++x) {
          if (near(p, {x, y})) ++crowd[index(x, y)];
        }
      }
    }
  }
  struct Cell {
    int x = 0;
    int y = 0;
  };
  [[nodiscard]] std::size_t index(int x, int y) const {
    return static_cast<std::size_t>(y) * static_cast<std::size_t>(cols) + static_cast<std::size_t>(x);
  }
  [[nodiscard]] Point centre(Cell c) const { return {(c.x + 0.5) * step, (c.y + 0.5) * step}; }
  [[nodiscard]] Cell cell_of(Point p) const {
    return {std::clamp(static_cast<int>(p.x / step), 0, cols - 1), std::clamp(static_cast<int>(p.y / step), 0, rows - 1)};
  }
  [[nodiscard]] bool near(Point p, Cell c) const {
    const Point q = centre(c);
    return std::hypot(p.x - q.x, p.y - q.y) < reach;
  }
};

/// The corners of a path from u to v around the nodes @p link does not join (see the header);
/// empty when the grid has none.
std::vector<Point> detour(const StarLayout& out, const RouteGrid& grid, const LinkPath& link, double clearance) {
  const Point a = out.nodes[link.u];
  const Point b = out.nodes[link.v];
  const auto free = [&](RouteGrid::Cell c) {
    return grid.crowd[grid.index(c.x, c.y)] == static_cast<int>(grid.near(a, c)) + static_cast<int>(grid.near(b, c));
  };
  const auto to_goal = [&](RouteGrid::Cell c) {
    const Point p = grid.centre(c);
    return std::hypot(p.x - b.x, p.y - b.y);
  };
  const RouteGrid::Cell start = grid.cell_of(a);
  const RouteGrid::Cell goal = grid.cell_of(b);
  std::vector<double> dist(grid.crowd.size(), std::numeric_limits<double>::infinity());
  std::vector<std::size_t> from(grid.crowd.size(), grid.crowd.size());
  using Entry = std::pair<double, std::size_t>;  // (estimated length, cell): ties go to the lower index
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> open;
  dist[grid.index(start.x, start.y)] = 0;
  open.push({to_goal(start), grid.index(start.x, start.y)});
  while (!open.empty()) {
    const auto [estimate, i] = open.top();
    open.pop();
    const RouteGrid::Cell c{static_cast<int>(i % static_cast<std::size_t>(grid.cols)),
                            static_cast<int>(i / static_cast<std::size_t>(grid.cols))};
    if (c.x == goal.x && c.y == goal.y) break;
    if (estimate > dist[i] + to_goal(c) + 1e-9) continue;  // a stale entry
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        const RouteGrid::Cell next{c.x + dx, c.y + dy};
        if ((dx == 0 && dy == 0) || next.x < 0 || next.y < 0 || next.x >= grid.cols || next.y >= grid.rows ||
            !free(next)) {
          continue;
        }
        const std::size_t j = grid.index(next.x, next.y);
        const double d = dist[i] + grid.step * (dx != 0 && dy != 0 ? std::numbers::sqrt2 : 1.0);
        if (d < dist[j] - 1e-9) {
          dist[j] = d;
          from[j] = i;
          open.push({d + to_goal(next), j});
        }
      }
    }
  }
  const std::size_t start_index = grid.index(start.x, start.y);
  std::size_t i = grid.index(goal.x, goal.y);
  if (from[i] == grid.crowd.size()) return {};
  std::vector<Point> path{b};
  for (i = from[i]; i != start_index; i = from[i]) {
    path.push_back(grid.centre({static_cast<int>(i % static_cast<std::size_t>(grid.cols)),
                                static_cast<int>(i / static_cast<std::size_t>(grid.cols))}));
  }
  path.push_back(a);
  std::reverse(path.begin(), path.end());
  // Pulled tight: from each corner, on to the farthest point of the path reached in a straight
  // line that keeps clear, walking forward.
  std::vector<Point> bends;
  for (std::size_t at = 0; at + 1 < path.size();) {
    std::size_t to = at + 1;
    if (!keeps_clear(out.nodes, link, path[at], path[to], clearance)) return {};
    while (to + 1 < path.size() && keeps_clear(out.nodes, link, path[at], path[to + 1], clearance)) ++to;
    if (to + 1 < path.size()) bends.push_back(path[to]);
    at = to;
  }
  return bends;
}

/// Bends the links that a straight segment cannot draw (the guarantee in the header).
void route_links(StarLayout& out, double clearance) {
  const RouteGrid grid(out, clearance);
  for (auto& link : out.links) {
    if (!keeps_clear(out.nodes, link, out.nodes[link.u], out.nodes[link.v], clearance)) {
      link.bends = detour(out, grid, link, clearance);
    }
  }
}

}  // namespace

std::string star_link_legend(int k) {
  return "link " + std::to_string(k) + ": swaps symbols 1 and " + std::to_string(k);
}

StarLayout star_layout(const topology::StarGraph& g, const StarLayoutSizes& sizes) {
  const int n = g.n();
  StarLayout out;
  out.nodes.resize(g.size());
  for (Vertex v = 0; v < g.size(); ++v) {
    for (int k = 2; k <= n; ++k) {
      const auto u = g.neighbor_along(v, k);
      if (u > v) out.links.push_back({v, u, k, {}});
    }
  }
  std::vector<Point> axes;
  Placer placer{std::vector<double>(static_cast<std::size_t>(n) + 1, 0.0),
                std::vector<double>(static_cast<std::size_t>(n) + 1, sizes.node_radius), sizes.gap / 4, out, axes};
  for (int m = 2; m <= n; ++m) {
    const auto i = static_cast<std::size_t>(m);
    placer.radius[i] =
        (placer.extent[i - 1] + (m == 2 ? sizes.pair_gap : sizes.gap) / 2) / std::sin(std::numbers::pi / m);
    placer.extent[i] = placer.radius[i] + placer.extent[i - 1];
  }
  const double half = placer.extent[static_cast<std::size_t>(n)] + sizes.margin;
  out.width = 2 * half;
  out.height = 2 * half;
  placer.place(n, 0, {half, half}, -std::numbers::pi / 2);
  orient_blocks(out, axes, 0, false);
  orient_blocks(out, axes, sizes.clearance, true);
  route_links(out, sizes.clearance);
  // Larger sub-stars first: SVG draws later outlines on top.
  std::stable_sort(out.substars.begin(), out.substars.end(),
                   [](const SubstarOutline& a, const SubstarOutline& b) { return a.m > b.m; });
  return out;
}

StarLayout star_layout(int n, const StarLayoutSizes& sizes) { return star_layout(topology::StarGraph(n), sizes); }

}  // namespace starnet::api
