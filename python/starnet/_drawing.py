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


def _transfer_bars(ax, frame, rows, offset, peer_column, names, label_peers, outline):
    """One bar a transfer, inset so that back-to-back messages stay apart, coloured by the port
    (the link) the sender used, the peer's name written in it when there is room."""
    from . import _core

    palette = _core.LINK_PALETTE
    start = frame["start"].astype(float).to_numpy()
    width = (frame["end"] - frame["start"]).astype(float).to_numpy()
    gap = 0.04 * (float(width[width > 0].min()) if (width > 0).any() else 0)
    ports = frame["port"].to_numpy()
    y = [rows[v] + offset for v in frame[peer_column[0]]]
    ax.barh(y, width - 2 * gap, left=start + gap, height=0.35, color=[palette[int(p) % len(palette)] for p in ports],
            edgecolor="black" if outline else "none", linewidth=0.4)
    if label_peers:
        for yy, x, w, peer in zip(y, start, width, frame[peer_column[1]]):
            ax.text(x + w / 2, yy, names[peer] if names is not None else str(peer), ha="center", va="center",
                    fontsize=6, color="white")
    return sorted(set(int(p) for p in ports))


def gantt(transfers, computations, makespan, topology, ax=None, max_rows=64, title=""):
    """One row per node: its sends (upper half of the row, outlined) and receives (lower half) as
    one bar a message, coloured by the sender's port and, on small charts, labelled with the peer;
    its computations as grey bars; the makespan as a dashed line."""
    import matplotlib.patches as mpatches

    from . import _core

    nodes = sorted(set(transfers["from"]).union(transfers["to"]).union(computations["node"]))[:max_rows]
    row = {node: i for i, node in enumerate(nodes)}
    fig, ax = _figure(ax, 10, 0.3 * len(nodes) + 1.5)
    names = topology.node_names() if topology is not None else None
    sends = transfers[transfers["from"].isin(row)]
    receives = transfers[transfers["to"].isin(row)]
    duration = lambda frame: (frame["end"] - frame["start"]).astype(float)
    label_peers = len(sends) + len(receives) <= _MAX_LABELLED_BARS
    # The y axis runs downwards (invert_yaxis below): sends above the row's middle, receives below.
    ports = set(_transfer_bars(ax, sends, row, -0.2, ("from", "to"), names, label_peers, outline=True))
    ports |= set(_transfer_bars(ax, receives, row, 0.2, ("to", "from"), names, label_peers, outline=False))
    palette = _core.LINK_PALETTE
    handles = [mpatches.Patch(color=palette[p % len(palette)], label=f"port {p}") for p in sorted(ports)]
    handles.append(mpatches.Patch(facecolor="white", edgecolor="black", label="send (upper, outlined), receive (lower)"))
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
    ax.legend(handles=handles + ax.get_legend_handles_labels()[0], loc="upper left", bbox_to_anchor=(1.0, 1.0),
              fontsize="small")
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
