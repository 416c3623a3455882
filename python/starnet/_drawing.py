"""Pictures as matplotlib figures: Gantt charts of runs and drawings of topologies."""

__all__ = ["gantt", "draw_topology"]


def _figure(ax, width, height):
    import matplotlib.pyplot as plt

    if ax is not None:
        return ax.figure, ax
    fig, ax = plt.subplots(figsize=(width, height))
    return fig, ax


def gantt(transfers, computations, makespan, topology, ax=None, max_rows=64, title=""):
    """One row per node: its sends (upper half of the row) and receives (lower half) as bars from
    start to end, its computations as grey bars; the makespan as a dashed line."""
    nodes = sorted(set(transfers["from"]).union(transfers["to"]).union(computations["node"]))[:max_rows]
    row = {node: i for i, node in enumerate(nodes)}
    fig, ax = _figure(ax, 10, 0.3 * len(nodes) + 1.5)
    names = topology.node_names() if topology is not None else None
    sends = transfers[transfers["from"].isin(row)]
    receives = transfers[transfers["to"].isin(row)]
    duration = lambda frame: (frame["end"] - frame["start"]).astype(float)
    ax.barh([row[v] + 0.2 for v in sends["from"]], duration(sends), left=sends["start"].astype(float), height=0.35,
            color="#0072B2", label="send")
    ax.barh([row[v] - 0.2 for v in receives["to"]], duration(receives), left=receives["start"].astype(float),
            height=0.35, color="#E69F00", label="receive")
    busy = computations[computations["node"].isin(row)]
    if len(busy):
        ax.barh([row[v] for v in busy["node"]], duration(busy), left=busy["start"].astype(float), height=0.8,
                color="#999999", alpha=0.5, label="compute")
    ax.axvline(makespan, color="#c00", linestyle="--", linewidth=1)
    ax.set_yticks(range(len(nodes)))
    ax.set_yticklabels([names[v] if names is not None else str(v) for v in nodes])
    ax.invert_yaxis()
    ax.set_xlabel("time")
    ax.set_title(f"{title} (makespan {makespan:g})")
    ax.legend(loc="upper right", fontsize="small")
    fig.tight_layout()
    return fig


def _star_positions(names):
    """S_n: the sub-stars S_{n-1} (fixed last symbol) around a circle, each laid out the same way
    inside (fixed last two symbols, …), so that the recursion of the star algorithms shows."""
    import math

    positions = {}

    def place(labels, depth, cx, cy, radius):
        if len(labels) == 1:
            positions[labels[0]] = (cx, cy)
            return
        groups = {}
        for label in labels:
            groups.setdefault(label[len(label) - 1 - depth], []).append(label)
        if len(groups) == 1:
            place(labels, depth + 1, cx, cy, radius)
            return
        for k, key in enumerate(sorted(groups)):
            angle = 2 * math.pi * k / len(groups) + math.pi / 2
            place(groups[key], depth + 1, cx + radius * math.cos(angle), cy + radius * math.sin(angle), radius / 2.4)

    place(list(names), 0, 0.0, 0.0, 1.0)
    return positions


def draw_topology(topology, ax=None, labels=None):
    """The topology drawn with networkx: star graphs of up to 120 nodes by sub-star, others with a
    spring layout (a circle for rings and complete graphs)."""
    import networkx as nx

    graph = topology.to_networkx()
    n = graph.number_of_nodes()
    spec = topology.spec
    if spec.startswith("star:") and n <= 120:
        pos = _star_positions(list(graph.nodes))
    elif spec.startswith(("ring:", "complete:")):
        pos = nx.circular_layout(graph)
    else:
        pos = nx.spring_layout(graph, seed=1)
    fig, ax = _figure(ax, 7, 7)
    show = labels if labels is not None else n <= 64
    nx.draw_networkx(graph, pos=pos, ax=ax, with_labels=show, node_size=300 if show else 40, font_size=7,
                     node_color="#56B4E9", edge_color="#888888")
    ax.set_title(f"{spec}: {n} nodes")
    ax.set_axis_off()
    fig.tight_layout()
    return fig
