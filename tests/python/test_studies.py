"""Searches and studies from Python: every answer is the command line's for the same input."""

import json
import os
from fractions import Fraction

import networkx as nx
import pandas as pd
import pytest

import starnet
from conftest import SOURCE_DIR, cli_json, run_cli, stable

GOLDEN = os.path.join(SOURCE_DIR, "tests", "tools", "golden")


def test_optimal_sat_is_the_command_lines_and_gives_its_schedule():
    r = starnet.optimal("star:4", collective="allreduce")
    assert r.optimum == 6 and r.proved and r.verified and r.steps == 6
    assert stable(r.to_dict()) == stable(cli_json("optimal", "--collective", "allreduce", "--topology", "star:4"))
    assert isinstance(r.schedule, starnet.Schedule)
    assert r.schedule.collective == "allreduce"
    assert r.schedule.run().steps == 6


def test_optimal_says_why_it_gives_no_schedule_as_the_command_line():
    # Gossip on S_4: the optimum is the star all-reduce's 6 steps, a word plan and not a gossip.
    r = starnet.optimal("star:4")
    assert r.optimum == 6 and r.schedule is None
    assert "all-reduce word plan" in r.schedule_note and "allreduce" in r.schedule_note
    assert stable(r.to_dict()) == stable(cli_json("optimal", "--topology", "star:4"))
    given = starnet.optimal("star:4", collective="allreduce")
    assert given.schedule is not None and given.schedule_note is None


def test_optimal_on_directed_networkx_graphs_is_sound():
    # The directed 5-cycle: the item goes round one arc a step, 4 steps; no bound may say more.
    c5 = starnet.Topology.from_networkx(nx.DiGraph([(i, (i + 1) % 5) for i in range(5)]), name="c5")
    for collective in ("broadcast", "gossip", "allreduce"):
        r = starnet.optimal(c5, collective=collective)
        assert (r.optimum, r.proved, r.verified) == (4, True, True), collective
        assert max(r.bounds.values()) <= 4, (collective, r.bounds)
        assert r.schedule.run().steps == 4, collective
    # Asymmetric arcs: a ring with one link one-way, and a chord.
    g = nx.DiGraph([(0, 1), (1, 0), (1, 2), (2, 1), (2, 3), (3, 2), (3, 4), (4, 3), (4, 0), (0, 2)])
    one_way = starnet.Topology.from_networkx(g, name="one-way")
    for collective in ("broadcast", "allreduce"):
        r = starnet.optimal(one_way, collective=collective)
        assert r.proved and r.verified, collective
        assert max(r.bounds.values()) <= r.optimum, (collective, r.bounds)
        assert r.schedule.run().steps == r.optimum, collective


def test_optimal_uniform_finds_the_nine_step_gossip_of_s5():
    r = starnet.optimal("star:5", method="uniform")
    assert r.steps == 9 and r.paper_steps == 10 and r.uniform_proved_minimal and r.verified
    assert len(r.moves) == 9
    assert stable(r.to_dict()) == stable(cli_json("optimal", "--topology", "star:5", "--method", "uniform"))


def test_optimal_bad_input_names_the_keyword():
    with pytest.raises(starnet.InputError, match="collective=scatter"):
        starnet.optimal("ring:4", collective="scatter")
    with pytest.raises(starnet.InputError, match="beam_width=.*method= uniform or coset"):
        starnet.optimal("ring:4", beam_width=3)
    with pytest.raises(starnet.InputError, match="root=zz"):
        starnet.optimal("ring:4", collective="broadcast", root="zz")


def test_whatif_is_a_dataframe_of_the_command_lines_rows():
    frame = starnet.whatif(collective="allreduce", topologies=["star:4", "hypercube:3"], ports=[1, 2])
    assert isinstance(frame, pd.DataFrame)
    expected = cli_json("whatif", "--collective", "allreduce", "--topologies", "star:4,hypercube:3", "--ports", "1,2")
    assert len(frame) == len(expected["rows"])
    assert list(frame["steps"]) == [row["steps"] for row in expected["rows"]]
    assert frame.attrs["verified"] is True
    assert stable(frame.attrs["document"]) == stable(expected)


def test_whatif_takes_a_topology_built_in_memory_as_the_command_line_takes_its_file(tmp_path):
    # The Petersen graph from networkx, and the same graph written as a DOT file for the command line:
    # the same rows (bounds, steps, the proven optimum, a schedule file's row), named by the graph.
    petersen = starnet.Topology.from_networkx(nx.petersen_graph(), name="petersen")
    dot = tmp_path / "petersen.dot"
    petersen.export("dot", dot)
    schedule = starnet.Schedule.export("bfs-tree", petersen, collective="allreduce")
    schedule.save(tmp_path / "tree.json")
    for collective in ("allreduce", "broadcast", "alltoall"):
        frame = starnet.whatif(collective=collective, topologies=[petersen, "ring:10"], optimal=collective != "alltoall",
                               schedule=tmp_path / "tree.json")
        expected = cli_json("whatif", "--collective", collective, "--topologies", f"{dot},ring:10",
                            *(["--optimal"] if collective != "alltoall" else []),
                            "--schedule", str(tmp_path / "tree.json"))
        assert frame.attrs["verified"] is True and expected["verified"] is True, collective
        assert set(frame["topology"]) == {"petersen", "ring:10"}
        rows = frame.attrs["document"]["rows"]
        for row in rows:
            if row["topology"] == "petersen":
                row["topology"] = str(dot)
        assert stable(rows) == stable(expected["rows"]), collective
    assert list(frame[frame["topology"] == "petersen"]["nodes"]) == [10] * (frame["topology"] == "petersen").sum()


def test_whatif_refuses_two_different_topologies_under_one_name():
    twice = [starnet.Topology.from_networkx(nx.path_graph(3), name="p"),
             starnet.Topology.from_networkx(nx.path_graph(4), name="p")]
    with pytest.raises(starnet.InputError, match="topologies=p: two different topologies go by this name"):
        starnet.whatif(topologies=twice)
    same = starnet.Topology.from_networkx(nx.path_graph(3), name="p")
    assert len(starnet.whatif(topologies=[same, starnet.Topology.from_networkx(nx.path_graph(3), name="p")])) == \
        len(starnet.whatif(topologies=[same]))


def test_whatif_timed_makespans_are_floats_that_plot_with_exact_fraction_twins():
    dot = os.path.join(GOLDEN, "steady_figure2.dot")
    frame = starnet.whatif(topologies=[dot], costs="topology", message_size=Fraction(3, 2))
    ran = frame[frame["applicable"]]
    assert len(ran) > 0
    assert frame["makespan"].dtype.kind in "fi" and frame["lower_bound_time"].dtype.kind in "fi"
    assert all(isinstance(m, Fraction) for m in ran["makespan_exact"])
    assert all(float(exact) == approx for exact, approx in zip(ran["makespan_exact"], ran["makespan"]))
    import matplotlib

    matplotlib.use("Agg")
    assert ran.plot.bar(x="algorithm", y="makespan") is not None  # an object column would raise here


def test_whatif_prices_every_collective_in_alpha_beta_as_the_command_line():
    frame = starnet.whatif(collective="alltoall", topologies=["star:4", "complete:8"], latency="1e-6",
                           bandwidth=Fraction(10**10), message_size=1024)
    expected = cli_json("whatif", "--collective", "alltoall", "--topologies", "star:4,complete:8", "--latency", "1e-6",
                        "--bandwidth", "10000000000", "--message-size", "1024")
    assert stable(frame.attrs["document"]) == stable(expected)
    assert frame.attrs["document"]["latency_exact"] == "1/1000000"
    one_packet = frame[frame["algorithm"] == "one-packet"]
    # Its s steps of one packet meet its own model's bound, not the total exchange's α·L + m/β·s.
    assert list(one_packet["steps"]) == [62, 7] and list(one_packet["bound_reached"]) == [False, False]
    # Every step of the one-packet exchange costs α + m/β.
    assert one_packet.iloc[0]["makespan_exact"] == 62 * (Fraction(1, 10**6) + Fraction(1024, 10**10))
    assert set(frame["algorithm"]) == {"bruck", "one-packet", "combining", "bfs-tree"}


MATCHED_120 = ["star:5", "pancake:5", "bubblesort:5", "nkstar:6:3", "arrangement:6:3", "torus:4x5x6", "hypercube:7",
               "fattree:8", "dragonfly:4:3:2"]


def test_whatif_over_the_matched_sizes_of_the_docs_comparison():
    # docs/topology.md and docs/whatif.md, "Matched sizes", at about 120 processors.
    processors = [starnet.Topology(spec).info.processors for spec in MATCHED_120]
    assert processors == [120, 120, 120, 120, 120, 120, 128, 128, 108]
    frame = starnet.whatif(topologies=MATCHED_120, latency="1e-6", bandwidth=10**10, message_size=8)
    expected = cli_json("whatif", "--topologies", ",".join(MATCHED_120), "--latency", "1e-6", "--bandwidth",
                        "10000000000", "--message-size", "8")
    assert stable(frame.attrs["document"]) == stable(expected)
    assert frame.attrs["verified"]
    steps = frame.groupby("topology", sort=False)["steps"].min()
    # With link costs the rows among a network's hosts (fat-tree, dragonfly) are timed: no steps.
    assert list(steps[:7]) == [10, 20, 20, 22, 24, 12, 7]
    fastest = frame.groupby("topology", sort=False)["makespan_exact"].min()
    assert fastest["star:5"] == Fraction(1251, 125000000) and fastest["hypercube:7"] == Fraction(8757, 1250000000)
    # Crossbar switches: the full-bisection fat-tree's hosts exchange as fast as the hypercube's
    # (relays before: 1251/19531250); the dragonfly's recursive doubling waits for global links.
    assert fastest["fattree:8"] == Fraction(8757, 1250000000)
    assert fastest["dragonfly:4:3:2"] == Fraction(8757, 312500000)


def test_whatif_total_exchange_over_the_matched_sizes_of_the_docs_comparison():
    # The total-exchange column at about 120 processors (docs/whatif.md): the fewest steps of a
    # verified row; the pancake and bubble-sort graphs by their combining exchanges, fat-tree and
    # dragonfly by Bruck's exchange among their 128 and 108 hosts over crossbar switches (relays
    # before: 64 and 50 steps), the dragonfly's waiting for its global links.
    frame = starnet.whatif(collective="alltoall", topologies=MATCHED_120)
    expected = cli_json("whatif", "--collective", "alltoall", "--topologies", ",".join(MATCHED_120))
    assert stable(frame.attrs["document"]) == stable(expected)
    verified = frame[frame["verified"].astype(bool)]
    steps = verified.groupby("topology", sort=False)["steps"].min()
    assert dict(steps) == {"star:5": 9, "pancake:5": 8, "bubblesort:5": 10, "nkstar:6:3": 22, "arrangement:6:3": 24,
                           "torus:4x5x6": 12, "hypercube:7": 7, "fattree:8": 7, "dragonfly:4:3:2": 31}
    best = verified.loc[verified.groupby("topology", sort=False)["steps"].idxmin()]
    assert list(best["algorithm"][:3]) == ["combining", "combining", "combining"]


def test_whatif_bad_alpha_beta_names_the_keyword():
    with pytest.raises(starnet.InputError, match="latency=-1"):
        starnet.whatif(collective="alltoall", topologies=["ring:4"], latency=-1)
    with pytest.raises(starnet.InputError, match="bandwidth=0"):
        starnet.whatif(collective="alltoall", topologies=["ring:4"], bandwidth=0)
    with pytest.raises(starnet.InputError, match="collective=scan"):
        starnet.whatif(collective="scan", topologies=["ring:4"])


def test_optimal_alltoall_gives_the_pareto_front_of_the_command_line():
    r = starnet.optimal("star:4", collective="alltoall", method="uniform")
    assert r.verified and r.status == 62 and r.pareto_complete
    assert [p["steps"] for p in r.pareto] == sorted(p["steps"] for p in r.pareto)
    assert r.pareto[-1]["volume"] == 62
    assert r.pareto[0]["crossover"] is None or isinstance(r.pareto[0]["crossover"], Fraction)
    assert r.schedule.collective == "alltoall" and r.schedule.run().verified
    expected = cli_json("optimal", "--collective", "alltoall", "--method", "uniform", "--topology", "star:4")
    assert stable(r.to_dict()) == stable(expected)
    with pytest.raises(starnet.InputError, match="mesh:3x3"):
        starnet.optimal("mesh:3x3", collective="alltoall", method="uniform")


def test_montecarlo_is_a_dataframe_per_algorithm_as_the_command_line():
    frame = starnet.montecarlo(n=8, runs=50, seed=3, threads=1)
    expected = cli_json("montecarlo", "--n", "8", "--runs", "50", "--seed", "3", "--threads", "1")
    assert list(frame["algorithm"]) == [a["algorithm"] for a in expected["algorithms"]]
    assert list(frame["mean"]) == [a["mean"] for a in expected["algorithms"]]
    assert frame.attrs["verified"] is True


def test_montecarlo_keeps_every_runs_makespan():
    frame = starnet.montecarlo(algorithms=["tree-dyn", "binomial-stat"], n=8, runs=50, seed=3, threads=1)
    makespans = frame.attrs["makespans"]
    assert set(makespans) == {"tree-dyn", "binomial-stat"}
    for row in frame.itertuples():
        runs = makespans[row.algorithm]
        assert len(runs) == 50
        assert runs.min() == row.min and runs.max() == row.max
        assert abs(runs.mean() - row.mean) < 1e-9 * row.mean


def _without_timing(frame):
    return frame.drop(columns=[c for c in ("wall_seconds", "simulations_per_second") if c in frame.columns])


@pytest.mark.parametrize("study", ["figure4", "figure5", "figure6"])
def test_montecarlo_study_frames_are_the_same_without_the_fast_path(study):
    kwargs = dict(study=study, n=8, runs=40, seed=2, points=3)
    if study != "figure4":
        kwargs["ratio_points"] = 2
    fast = starnet.montecarlo(**kwargs)
    general = starnet.montecarlo(fast_path=False, **kwargs)
    pd.testing.assert_frame_equal(_without_timing(fast), _without_timing(general), check_exact=True)
    pd.testing.assert_frame_equal(fast.attrs["figure"], general.attrs["figure"], check_exact=True)


def test_montecarlo_makespans_are_the_same_without_the_fast_path():
    fast = starnet.montecarlo(n=17, runs=300, seed=4, dist="poisson", cv=0.5, mu_c=0.5)
    general = starnet.montecarlo(n=17, runs=300, seed=4, dist="poisson", cv=0.5, mu_c=0.5, fast_path=False)
    for algorithm, runs in fast.attrs["makespans"].items():
        assert runs.tobytes() == general.attrs["makespans"][algorithm].tobytes(), algorithm
    with pytest.raises(starnet.InputError, match="fast_path"):
        starnet.montecarlo(n=8, runs=10, fast_path="off")


def test_montecarlo_run_is_the_command_lines_trace(tmp_path):
    r = starnet.montecarlo(algorithms=["tree-dyn"], n=8, runs=50, run=3)
    trace_file = tmp_path / "run3.jsonl"
    expected = cli_json("montecarlo", "--algos", "tree-dyn", "--n", "8", "--runs", "50", "--run", "3",
                        "--trace", str(trace_file))
    assert r.run == expected["run"]
    events = [json.loads(line) for line in trace_file.read_text().splitlines()]
    assert len(r.trace) == len(events)
    assert list(r.trace["time"]) == [e["time"] for e in events]
    assert list(r.trace["event"]) == [e["event"] for e in events]
    assert r.transfers["end"].max() == pytest.approx(r.run["makespan"])
    with pytest.raises(starnet.InputError, match="run="):
        starnet.montecarlo(n=8, runs=10, run=3)  # one algorithm only


def test_montecarlo_worst_cases_keep_exact_ratios():
    frame = starnet.montecarlo(worst_case=True)
    assert all(isinstance(x, Fraction) for x in frame["ratio_exact"])
    assert frame["ratio"].dtype.kind == "f"
    assert all(frame["within_bound"])
    assert stable(frame.attrs["document"]) == stable(cli_json("montecarlo", "--worst-case"))


def test_reduce_plan_and_figure2_are_the_command_lines():
    r = starnet.reduce("greedy", n=10, d=Fraction(3, 2), c=1)
    assert r.verified and isinstance(r.length, Fraction)
    out = run_cli("reduce", "--algorithm", "greedy", "--n", "10", "--d", "3/2", "--c", "1", "--json")[1]
    assert stable(r.to_dict()) == stable(json.loads(out))
    f2 = starnet.reduce(study="figure2", max_n=100)
    assert len(f2) == 99 and f2.attrs["verified"]
    assert all(isinstance(x, Fraction) for x in f2["binomial_length"])


def test_reduce_trace_and_gantt():
    r = starnet.reduce("greedy", n=6, d=1, c=1, trace=True)
    assert len(r.transfers) == 5  # a reduction of 6 elements: 5 transfers
    import matplotlib

    matplotlib.use("Agg")
    assert r.gantt().axes


def test_markov_is_exact():
    r = starnet.markov(6, rate=Fraction(2))
    assert r.verified
    assert isinstance(r.expected, Fraction) and isinstance(r.variance, Fraction)
    assert stable(r.to_dict()) == stable(cli_json("markov", "--n", "6", "--rate", "2"))


def test_steady_scatter_is_the_command_lines_with_exact_throughput():
    dot = os.path.join(GOLDEN, "steady_figure2.dot")
    r = starnet.steady.scatter(dot, source="Ps", targets=["P0", "P1"], emulate=20)
    assert r.verified and isinstance(r.throughput, Fraction)
    expected = cli_json("steady", "scatter", "--topology", dot, "--source", "Ps", "--targets", "P0,P1", "--emulate", "20")
    assert stable(r.to_dict()) == stable(expected)


def test_a_steady_runs_trace_file_is_written_after_the_call_returned():
    """trace_text() of an emulated steady-state run reads the platform the run kept alive."""
    dot = os.path.join(GOLDEN, "steady_figure2.dot")
    r = starnet.steady.scatter(dot, source="Ps", targets=["P0", "P1"], emulate=20, trace=True)
    assert "send to Pb" in r.trace_text("chrome")
    assert r.trace_text("jsonl").count("\n") == len(r.trace["step"])


def test_steady_reduce_and_gossip_run():
    dot = os.path.join(GOLDEN, "steady_figure6.dot")
    r = starnet.steady.reduce(dot, participants="P0,P1,P2", target="P0")
    assert r.certified and r.verified
    with pytest.raises(starnet.InputError, match="period=0"):
        starnet.steady.scatter(os.path.join(GOLDEN, "steady_figure2.dot"), "Ps", ["P0"], period=0)


def test_optimal_study_beyond_rows():
    frame = starnet.optimal_study("star", time_limit=5)
    assert len(frame) == 24
    assert frame.attrs["verified"] == frame["verified"].all()


def test_run_results_know_their_topology_and_name_their_collective():
    r = starnet.reduce(n=6, trace=True)
    assert r.topology == starnet.Topology("complete:6")
    fig = r.gantt()
    title = fig.axes[0].get_title()
    assert title == "greedy reduction on complete:6: makespan 5", title
    s = starnet.steady.scatter("star:3", "123", ["213", "321"])
    assert s.topology == starnet.Topology("star:3")
    assert starnet.allreduce("star:3").collective == "allreduce"
    assert starnet.broadcast("star:3").collective == "broadcast"
