"""starnet.Topology: specs, files and networkx graphs; the answers of `starnet topo`."""

from fractions import Fraction

import networkx as nx
import pytest

import starnet
from conftest import cli_json, run_cli, stable


def test_attributes_are_topo_infos_fields():
    t = starnet.Topology("star:5")
    assert t.nodes == 120
    assert t.links == 240
    assert t.diameter == 6
    assert t.average_distance == Fraction(26, 7)
    assert isinstance(t.average_distance, Fraction)
    assert stable(t.info.to_dict()) == stable(cli_json("topo", "info", "star:5"))


def test_bad_specs_raise_input_error_naming_them():
    with pytest.raises(starnet.InputError, match="stra:5") as e:
        starnet.Topology("stra:5")
    assert isinstance(e.value, ValueError)
    with pytest.raises(starnet.InputError, match="topology=42"):  # no raw TypeError
        starnet.Topology(42)


def test_networkx_round_trip_keeps_links_and_exact_weights():
    g = nx.cycle_graph(5)
    for u, v in g.edges:
        g.edges[u, v]["weight"] = 0.5 if u == 0 else Fraction(1, 3)
    t = starnet.Topology.from_networkx(g, name="c5")
    assert t.nodes == 5 and t.links == 5 and t.diameter == 2
    back = t.to_networkx()
    assert isinstance(back, nx.Graph) and not back.is_directed()
    assert nx.is_isomorphic(back, nx.relabel_nodes(g, str))
    weights = sorted(d["weight"] for _, _, d in back.edges(data=True))
    assert weights == [Fraction(1, 3)] * 3 + [Fraction(1, 2)] * 2


def test_a_digraph_gives_arcs_and_comes_back_directed():
    g = nx.DiGraph([("a", "b"), ("b", "c"), ("c", "a")])
    t = starnet.Topology.from_networkx(g)
    assert t.directed
    assert t.diameter == 2
    back = t.to_networkx()
    assert isinstance(back, nx.DiGraph)
    # Nodes by id, as programs speak of them (issue #59); the names are attributes.
    assert set(back.edges) == {(0, 1), (1, 2), (2, 0)}
    assert [back.nodes[v]["name"] for v in back] == ["a", "b", "c"]
    assert starnet.Topology.from_networkx(back) == t


def test_to_networkx_keeps_node_ids_with_names_as_attributes():
    t = starnet.Topology("hypercube:2")
    g = t.to_networkx()
    assert sorted(g.nodes) == [0, 1, 2, 3]
    assert [g.nodes[v]["name"] for v in range(4)] == ["00", "01", "10", "11"]
    torus = starnet.Topology("torus:3x3")
    assert starnet.Topology.from_networkx(torus.to_networkx()) == torus  # names read back


def test_a_spec_topology_exports_to_networkx():
    g = starnet.Topology("hypercube:3").to_networkx()
    assert g.number_of_nodes() == 8 and g.number_of_edges() == 12
    assert all(d["weight"] == 1 for _, _, d in g.edges(data=True))


def test_bad_weights_are_refused_naming_the_keyword():
    g = nx.path_graph(3)
    g.edges[0, 1]["weight"] = -2
    with pytest.raises(starnet.InputError, match="weight=-2"):
        starnet.Topology.from_networkx(g)


def test_export_reads_back_and_draw_is_a_figure():
    t = starnet.Topology("ring:6")
    assert "graph" in t.export("dot")
    import matplotlib

    matplotlib.use("Agg")
    fig = starnet.Topology("star:4").draw()
    assert fig.axes and len(fig.axes[0].collections) >= 1


def test_table1_is_the_command_lines():
    assert stable(starnet.table1().to_dict()) == stable(cli_json("topo", "compare", "--paper", "table1"))


def test_topologies_are_equal_by_structure_wherever_they_come_from():
    g = nx.cycle_graph(5)
    p = starnet.Topology.from_networkx(g)
    same = starnet.Topology.from_networkx(g, name="another name")
    assert p == p and p == same and hash(p) == hash(same)
    assert len({p, same}) == 1
    assert starnet.Topology("ring:5") == starnet.Topology("ring:5")
    heavier = g.copy()
    nx.set_edge_attributes(heavier, 2, "weight")
    assert p != starnet.Topology.from_networkx(heavier)
    assert p != starnet.Topology.from_networkx(nx.DiGraph([(i, (i + 1) % 5) for i in range(5)]))
    assert p != starnet.Topology.from_networkx(nx.relabel_nodes(g, {0: "a"}))
    assert p != "ring:5"


def test_a_digraph_whose_every_arc_has_its_reverse_comes_back_a_graph():
    d = nx.DiGraph()
    for u, v in ((0, 1), (1, 2), (2, 0)):
        d.add_edge(u, v, weight=Fraction(1, 3))
        d.add_edge(v, u, weight=Fraction(1, 3))
    assert type(starnet.Topology.from_networkx(d).to_networkx()) is nx.Graph
    d.edges[0, 1]["weight"] = 2  # one direction dearer: arcs again
    assert type(starnet.Topology.from_networkx(d).to_networkx()) is nx.DiGraph


def test_tab_completion_offers_the_info_fields_and_no_internals():
    t = starnet.Topology("star:11")
    offered = [a for a in dir(t) if not a.startswith("_")]
    assert {"nodes", "diameter", "average_distance", "links"} <= set(offered)
    assert t._info is None, "dir() must not compute the info (seconds on star:11)"
    ring = starnet.Topology("ring:4")
    info_fields = set(ring.info.to_dict()) - {"version", "average_distance_exact"}
    assert info_fields <= set(dir(ring)), info_fields - set(dir(ring))
    assert not [a for a in dir(starnet) if a in ("engine_choice", "progress_bar", "spec_of")]
    with pytest.raises(starnet.InputError, match=r"topology=5: expected a spec"):
        starnet.Topology(5)


def test_svg_is_the_command_lines_drawing_and_takes_graphs_built_in_memory():
    for spec, layout in (("star:3", "auto"), ("ring:6", "auto"), ("hypercube:3", "dot")):
        code, out, _ = run_cli("topo", "draw", spec, "--layout", layout, "-o", "-")
        assert code == 0 and starnet.Topology(spec).svg(layout) == out, spec
    petersen = starnet.Topology.from_networkx(nx.petersen_graph(), name="petersen")
    svg = petersen.svg()
    assert svg.count('class="node"') == 10 and svg.count('class="edge"') == 15
    with pytest.raises(starnet.InputError, match="layout=sfdp"):
        petersen.svg("sfdp")
    with pytest.raises(starnet.InputError, match="300 nodes are too many to draw"):
        starnet.Topology("ring:300").svg()


def test_svg_colours_links_by_a_link_report_as_the_command_line_does(tmp_path):
    """A schedule run's link report, as a DataFrame or its CSV file: the same drawing as
    `topo draw --link-loads`, the loaded links red, the idle ones grey."""
    s = starnet.Schedule(collective="broadcast", topology="ring:4", chunks=1, root=0)
    s.send(0, 0, 1, [0])
    s.send(1, 1, 2, [0])
    s.send(1, 0, 3, [0])
    r = s.run(link_report=True)
    assert r.verified and sorted(r.link_report["link"]) == ["0->1", "0->3", "1->2"]
    ring = starnet.Topology("ring:4")
    from_frame = ring.svg(link_loads=r.link_report)
    assert "#a50f15" in from_frame and "#c8c8c8" in from_frame and "not in the link report" in from_frame
    path = tmp_path / "b.json"
    s.save(path)
    csv = tmp_path / "links.csv"
    assert run_cli("schedule", "run", path, "--link-report", csv)[0] == 0
    code, out, _ = run_cli("topo", "draw", "ring:4", "--link-loads", csv, "-o", "-")
    assert code == 0 and ring.svg(link_loads=csv) == out
    bad = tmp_path / "bad.csv"
    bad.write_text("row,topology,link,messages,units_exact,busy_exact\n0,ring:4,0->2,1,1,1\n")
    with pytest.raises(starnet.InputError, match=r"link_loads.*\"0->2\" is not a link"):
        ring.svg(link_loads=bad)
    with pytest.raises(starnet.InputError, match="link_loads=5"):
        ring.svg(link_loads=5)
    # The measure is checked with or without a report (api::drawn_loads): never ignored.
    with pytest.raises(starnet.InputError, match=r"load_by=units: applies only with link_loads="):
        ring.svg(load_by="units")
    with pytest.raises(starnet.InputError, match=r"load_by=bytes.*busy, units or messages"):
        ring.svg(link_loads=csv, load_by="bytes")
    assert ring.svg(link_loads=csv, load_by="busy") == out


def test_draw_is_the_command_lines_drawing_in_matplotlib():
    """One layout for both faces (api/drawing.hpp): the figure puts every node where the SVG does."""
    import re

    import matplotlib

    matplotlib.use("Agg")
    for spec in ("star:4", "ring:6", "fattree:4"):
        topology = starnet.Topology(spec)
        svg = topology.svg()
        ax = topology.draw(labels=True).axes[0]
        drawn = {t.get_text(): t.get_position() for t in ax.texts}
        assert set(drawn) == set(topology.node_names()), spec
        # The SVG's node groups: <title>NAME</title> then the node's box, its text at (x, y) with y
        # negative (Graphviz's translate); the figure's y runs downwards from the top.
        height = float(re.search(r'viewBox="[\d.]+ [\d.]+ [\d.]+ ([\d.]+)"', svg).group(1))
        for name, x, y in re.findall(r'<g id="node\d+" class="node">\s*<title>([^<]+)</title>.*?<text[^>]*'
                                     r'x="([-\d.]+)" y="([-\d.]+)"', svg, re.S):
            if name not in drawn:
                continue  # a star graph's sub-star outline
            fx, fy = drawn[name]
            assert abs(fx - float(x)) < 8 and abs(fy - (height + float(y)) + 4) < 12, (spec, name)
        assert len(ax.lines) >= starnet.Topology(spec).info.links, spec


def test_a_network_gives_the_distances_among_its_hosts_and_what_its_links_offer():
    hosts = starnet.Topology("fattree:8").hosts
    assert (hosts["diameter"], hosts["average_distance"]) == (6, Fraction(726, 127))  # 2, 4 or 6 links apart
    assert starnet.Topology("star:4").hosts is None
    assert "oversubscribed 3:2" in starnet.Topology("dragonfly:4:3:2").network_notes[0]


def test_a_file_or_graph_without_a_formula_gets_a_partitions_upper_bound(tmp_path):
    ring = tmp_path / "ring8.dot"
    ring.write_text(starnet.Topology("ring:8").export("dot"))
    b = starnet.Topology(str(ring)).bisection
    assert b == {"links": 2, "exact": False,
                 "argument": "upper bound: a balanced partition by METIS (Karypis and Kumar, 1998), 2 links cross"}
    assert b == cli_json("topo", "info", str(ring))["bisection"]
    cube = starnet.Topology.from_networkx(nx.hypercube_graph(4), name="q4").bisection
    assert (cube["links"], cube["exact"]) == (8, False)  # Q_4's width, 2^3: the bound is tight here
    assert starnet.Topology("hypercube:4").bisection["exact"] is True  # the formula, by spec
