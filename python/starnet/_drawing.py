"""Pictures as matplotlib figures: Gantt charts of runs and drawings of topologies."""

__all__ = ["gantt", "draw_topology"]

# S_5 (120 nodes) is the largest star graph the layout draws readably (docs/viz.md).
_STAR_LAYOUT_NODES = 120
# Up to this many bars a Gantt chart writes each message's peer in its bar (more would not read).
_MAX_LABELLED_BARS = 400


def _figure(ax, width, height):
    import matplotlib.pyplot as plt

    if ax is not None:
        return ax.figure, ax
    fig, ax = plt.subplots(figsize=(width, height))
    return fig, ax


# The chart's lanes (api/gantt.hpp's GanttLane): a row's sends above its receives, computations below.
_LANE_OFFSET = (-0.28, 0.0, 0.28)
_LANE_HEIGHT = 0.26
_COMPUTE_LANE = 2


def gantt(chart, ax=None, max_rows=None):
    """The run's Gantt chart (api/gantt.hpp: the bars the command line's ``--gantt`` SVG draws),
    drawn with matplotlib: one row per node, its sends (upper lane, outlined), receives (middle
    lane) and computations (lower lane, grey), a bar a message coloured by the sender's port and
    labelled with its peer where there is room; the makespan as a dashed line. ``max_rows``: the
    first rows only (None: all)."""
    import matplotlib.patches as mpatches

    from . import _core

    rows = chart["rows"] if max_rows is None else chart["rows"][:max_rows]
    bars = chart["bars"]
    keep = bars["row"] < len(rows)
    fig, ax = _figure(ax, 10, 0.3 * len(rows) + 1.5)
    palette = _core.LINK_PALETTE
    lane = bars["lane"][keep]
    start = bars["start"][keep]
    width = bars["end"][keep] - start
    row = bars["row"][keep]
    port = bars["port"][keep]
    labels = [label for label, kept in zip(bars["label"], keep) if kept]
    compute = lane == _COMPUTE_LANE
    colours = ["#999999" if c else palette[int(p) % len(palette)] for c, p in zip(compute, port)]
    y = row + [_LANE_OFFSET[int(k)] for k in lane]
    ax.barh(y, width, left=start, height=_LANE_HEIGHT, color=colours,
            edgecolor=["black" if k == 0 else "none" for k in lane], linewidth=0.4)
    if len(labels) <= _MAX_LABELLED_BARS:
        for yy, x, w, label in zip(y, start, width, labels):
            ax.text(x + w / 2, yy, label, ha="center", va="center", fontsize=5, color="white")
    ports = sorted(set(int(p) for p, c in zip(port, compute) if not c))
    handles = [mpatches.Patch(color=palette[p % len(palette)], label=f"port {p}") for p in ports]
    handles.append(mpatches.Patch(facecolor="white", edgecolor="black", label="send (upper, outlined), receive (middle)"))
    handles.append(mpatches.Patch(color="#999999", label="computation (lower)"))
    ax.axvline(chart["makespan"], color="#c00", linestyle="--", linewidth=1)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels(rows)
    ax.invert_yaxis()
    ax.set_xlabel("time")
    ax.set_title(chart["title"])
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize="small")
    fig.tight_layout()
    return fig


def _draw_star(topology, ax, show):
    """S_n as the teaching pages draw it (the extension's layout): sub-stars on circles, links
    coloured by dimension, bent around the nodes they do not join."""
    from . import _core

    n = int(topology.spec.split(":")[1])
    nodes, links, palette = _core.star_layout(n)
    names = topology.node_names()
    for u, v, k, bends in links:
        points = [nodes[u], *bends, nodes[v]]
        ax.plot([p[0] for p in points], [p[1] for p in points], color=palette[k - 2], linewidth=1.2, zorder=1)
    ax.scatter([p[0] for p in nodes], [p[1] for p in nodes], s=420 if show else 60, color="#FFFFFF",
               edgecolors="#333333", zorder=2)
    if show:
        for (x, y), name in zip(nodes, names):
            ax.text(x, y, name, ha="center", va="center", fontsize=7, zorder=3)
    for k in range(2, n + 1):
        ax.plot([], [], color=palette[k - 2], label=f"link {k}")
    ax.legend(loc="upper right", fontsize="small")
    ax.invert_yaxis()
    ax.set_aspect("equal")


def draw_topology(topology, ax=None, labels=None):
    """The topology drawn with networkx: star graphs of up to 120 nodes by sub-star, others with a
    spring layout (a circle for rings and complete graphs)."""
    import networkx as nx

    spec = topology.spec
    n = topology.info.nodes
    fig, ax = _figure(ax, 7, 7)
    show = labels if labels is not None else n <= 64
    if spec.startswith("star:") and n <= _STAR_LAYOUT_NODES:
        _draw_star(topology, ax, show)
    else:
        graph = topology.to_networkx()
        pos = nx.circular_layout(graph) if spec.startswith(("ring:", "complete:")) else nx.spring_layout(graph, seed=1)
        nx.draw_networkx(graph, pos=pos, ax=ax, with_labels=show, node_size=300 if show else 40, font_size=7,
                         node_color="#56B4E9", edge_color="#888888")
    ax.set_title(f"{spec}: {n} nodes")
    ax.set_axis_off()
    fig.tight_layout()
    return fig
