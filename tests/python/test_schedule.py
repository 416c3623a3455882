"""starnet.Schedule: built, loaded, saved and run, as `starnet schedule` answers."""

import os

import pytest

import starnet
from conftest import EXAMPLES, SHARED, cli_json, run_cli, stable


def ring_allgather(n):
    s = starnet.Schedule(collective="allgather", topology=f"ring:{n}", chunks=n)
    for step in range(n - 1):
        for v in range(n):
            s.send(step, v, (v + 1) % n, [(v - step) % n])
    return s


def test_a_ring_allgather_built_in_python_runs_verified():
    s = ring_allgather(6)
    assert s.steps == 5 and s.transfers == 30
    r = s.run()
    assert r.verified and r.steps == 5 and r.problem is None


def test_the_link_report_counts_each_link_of_a_ring_as_the_command_line_does(tmp_path):
    # Node v sends to v + 1 at each of the 5 steps: 5 one-chunk messages on each link v->v+1.
    s = ring_allgather(6)
    r = s.run(link_report=True)
    frame = r.link_report
    assert len(frame) == 6
    assert sorted(frame["link"]) == sorted(f"{v}->{(v + 1) % 6}" for v in range(6))
    assert (frame["messages"] == 5).all() and (frame["packets"] == 5).all() and (frame["busy"] == 5).all()
    assert {"row", "topology", "algorithm", "ports", "duplex", "link", "messages", "packets", "units",
            "busy"} <= set(frame.columns)
    assert s.run().link_report is None
    path = tmp_path / "ring6.json"
    s.save(path)
    csv = tmp_path / "links.csv"
    cli = cli_json("schedule", "run", path, "--link-report", csv)
    assert stable(starnet.Schedule.load(path).run(link_report=True).to_dict()) == stable(cli)
    with pytest.raises(starnet.InputError, match="link_report"):
        s.run(link_report="yes")


def test_saved_schedule_runs_the_same_from_the_command_line(tmp_path):
    path = tmp_path / "ring6.json"
    ring_allgather(6).save(path)
    r = starnet.Schedule.load(path).run()
    expected = cli_json("schedule", "run", path)
    assert stable(r.to_dict()) == stable(expected)


def test_a_failed_run_is_a_result_with_the_command_lines_problem(tmp_path):
    s = starnet.Schedule(collective="allgather", topology="ring:4", chunks=4)
    s.send(0, 0, 2, [0])  # no link 0–2 on a ring
    r = s.run()
    assert not r.verified
    assert "link" in r.problem
    path = tmp_path / "bad.json"
    s.save(path)
    code, out, err = run_cli("schedule", "run", path, "--json")
    assert code == 1
    import json

    assert json.loads(out)["problem"] == r.problem


def test_every_example_matches_the_command_line():
    for name in ("allreduce", "alltoall", "scatter", "allreduce_programs"):
        path = os.path.join(EXAMPLES, name + ".json")
        r = starnet.Schedule.load(path).run()
        assert r.verified, name
        assert stable(r.to_dict()) == stable(cli_json("schedule", "run", path)), name


def test_export_and_timed_runs_give_exact_makespans():
    from fractions import Fraction

    s = starnet.Schedule.export("ring", "ring:5")
    r = s.run(costs="topology", chunk_size="1/3")
    assert r.verified
    assert isinstance(r.makespan, Fraction)
    assert r.makespan.denominator == 3


def test_msccl_files_load_from_shared_data():
    folder = os.path.join(SHARED, "data", "msccl")
    if not os.path.isdir(folder):
        pytest.skip(f"{folder} is absent (the shared data of the workplace)")
    checked = 0
    for name in sorted(f for f in os.listdir(folder) if f.endswith(".xml")):
        path = os.path.join(folder, name)
        code, out, err = run_cli("schedule", "run", path, "--json", check=False)
        if code == 2:  # a collective starnet cannot check (coll="custom"): the module says the same
            with pytest.raises(starnet.InputError, match="custom"):
                starnet.Schedule.load(path)
            continue
        s = starnet.Schedule.load(path)
        assert s.format == "msccl"
        r = s.run()
        assert r.verified, name
        assert stable(r.to_dict()) == stable(cli_json("schedule", "run", path)), name
        checked += 1
    assert checked >= 3


def test_bad_schedules_raise_input_error():
    with pytest.raises(starnet.InputError, match="op=merge: expected copy or reduce"):
        starnet.Schedule(collective="allgather", topology="ring:4", chunks=4).send(0, 0, 1, [0], op="merge")
    with pytest.raises(starnet.InputError, match="collective"):
        starnet.Schedule(collective="allsum", topology="ring:4").send(0, 0, 1, [0]).run()
    with pytest.raises(starnet.InputError, match="ports=0"):
        ring_allgather(4).run(ports=0)


def test_a_schedule_on_a_networkx_topology_exports_saves_and_loads_back(tmp_path):
    import networkx as nx

    g = nx.cycle_graph(5)
    nx.set_edge_attributes(g, 2, "weight")
    c5 = starnet.Topology.from_networkx(g, name="c5")
    exported = starnet.Schedule.export("bfs-tree", c5)
    assert exported.topology == c5 and exported.run().verified
    path = tmp_path / "c5.json"
    exported.save(path)
    assert (tmp_path / "c5.topology.graphml").exists()
    back = starnet.Schedule.load(path)
    assert back.topology == c5
    assert back.run().steps == exported.run().steps and back.run(costs="topology").verified
    # The command line reads the pair as the module wrote it.
    assert cli_json("schedule", "run", path)["verified"]
    # A schedule built by hand on it, and one the optimal search gives on a DiGraph, likewise.
    hand = starnet.Schedule(collective="broadcast", topology=c5, root=0)
    for step, (src, dst) in enumerate([(0, 1), (1, 2), (2, 3), (3, 4)]):
        hand.send(step, src, dst, [0])
    hand.save(tmp_path / "hand.json")
    assert starnet.Schedule.load(tmp_path / "hand.json").run().verified
    arcs = starnet.Topology.from_networkx(nx.DiGraph([(i, (i + 1) % 5) for i in range(5)]), name="arcs")
    found = starnet.optimal(arcs, collective="allreduce").schedule
    found.save(tmp_path / "found.json")
    again = starnet.Schedule.load(tmp_path / "found.json")
    assert again.topology == arcs and again.run().steps == 4


def test_a_schedule_on_a_topology_built_in_memory_needs_a_file_to_save_to():
    import networkx as nx

    s = starnet.Schedule.export("bfs-tree", starnet.Topology.from_networkx(nx.path_graph(3), name="p3"))
    assert '"topology":""' in s.to_json().replace(" ", "")
    with pytest.raises(starnet.InputError, match="p3.*built in memory"):
        s.save("-")


def test_built_in_schedules_and_exact_searches_refuse_routers():
    """On a fat-tree the collectives run among the processors (whatif); a built-in schedule or an
    exact search over every node would make its switches participants: refused, naming them."""
    with pytest.raises(starnet.InputError, match="topology=fattree:4: has 20 routers among its 36 nodes"):
        starnet.Schedule.export("bfs-tree", "fattree:4")
    with pytest.raises(starnet.InputError, match="topology=dragonfly:2:2:1: has 6 routers"):
        starnet.optimal("dragonfly:2:2:1", collective="broadcast")


def test_to_msccl_is_the_command_lines_export_and_save_writes_it(tmp_path):
    # docs/gpu.md: the same bytes from both faces; save("F.xml") writes MSCCL, load reads it back.
    s = starnet.Schedule.export("recursive-doubling", "hypercube:3")
    cli = tmp_path / "cli.xml"
    run_cli("schedule", "export", "--algorithm", "recursive-doubling", "--topology", "hypercube:3", "-o", cli)
    assert s.to_msccl(name="recursive-doubling exported by starnet") == cli.read_text()
    path = tmp_path / "rd.xml"
    s.save(path)
    assert path.read_text().startswith('<algo name="starnet" proto="Simple" nchannels="1" nchunksperloop="1" ngpus="8"')
    back = starnet.Schedule.load(path, topology="hypercube:3")
    assert back.format == "msccl" and back.transfers == s.transfers
    r = back.run()
    assert r.verified and r.steps == 3


def test_a_schedule_built_in_python_goes_to_msccl_and_back(tmp_path):
    s = ring_allgather(5)
    xml = s.to_msccl(protocol="LL")
    assert 'proto="LL"' in xml and 'coll="allgather"' in xml
    (tmp_path / "ring5.xml").write_text(xml)
    assert starnet.Schedule.load(tmp_path / "ring5.xml", topology="ring:5").run().verified


def test_what_msccl_cannot_express_raises_input_error_naming_it():
    s = starnet.Schedule(collective="allreduce", topology="complete:2", chunks=72)
    s.send(0, 0, 1, list(range(72)), op="reduce")
    s.send(1, 1, 0, list(range(72)))
    with pytest.raises(starnet.InputError, match="below 72"):
        s.to_msccl()
    with pytest.raises(starnet.InputError, match="protocol"):
        ring_allgather(4).to_msccl(protocol="LL64")


def test_the_schedule_optimal_finds_goes_to_msccl(tmp_path):
    found = starnet.optimal("hypercube:3", collective="allreduce")
    path = tmp_path / "optimal.xml"
    found.schedule.save(path)
    r = starnet.Schedule.load(path, topology="hypercube:3").run()
    assert r.verified and r.nodes_checked == 8
