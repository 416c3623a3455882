"""starnet.allreduce and starnet.broadcast: the star collectives, as the command line answers."""

import sys
from fractions import Fraction

import numpy as np
import pytest

import starnet
from conftest import cli_json, run_cli, stable


def test_allreduce_is_the_command_lines_document():
    r = starnet.allreduce("star:5")
    assert r.steps == 10 and r.verified and r.nodes_verified == 120
    assert stable(r.to_dict()) == stable(cli_json("allreduce", "--topology", "star:5"))


def test_every_option_mirrors_the_command_line():
    r = starnet.allreduce(starnet.Topology("star:4"), engine="zmq", workers=3, op="xor", values="random", seed=7)
    expected = cli_json("allreduce", "--topology", "star:4", "--engine", "zmq", "--workers", "3", "--op", "xor",
                        "--values", "random", "--seed", "7")
    assert stable(r.to_dict()) == stable(expected)
    assert r.workers == 3 and r.transport == "inproc"


def test_zmq_worker_threads_take_the_timeout():
    r = starnet.allreduce("star:5", engine="zmq", workers=3, timeout=5)
    assert r.verified and r.nodes_verified == 120


def test_threads_give_one_threads_run():
    # S_9's run takes several lanes (2^14 nodes each at least; S_8 is the smallest that takes two).
    one = starnet.allreduce("star:9", threads=1)
    two = starnet.allreduce("star:9", threads=2)
    assert one.verified and one.steps == 36
    assert stable(two.to_dict()) == stable(one.to_dict())
    assert stable(two.to_dict()) == stable(cli_json("allreduce", "--topology", "star:9", "--threads", "2"))
    with pytest.raises(starnet.InputError, match=r"threads=-1: expected a number of threads in 0\.\."):
        starnet.allreduce("star:4", threads=-1)
    with pytest.raises(starnet.InputError, match=r"threads=2: applies to the local engine"):
        starnet.allreduce("star:4", engine="zmq", threads=2)


def test_broadcast_is_the_command_lines_document():
    r = starnet.broadcast("star:4")
    assert r.verified and r.nodup
    assert stable(r.to_dict()) == stable(cli_json("broadcast", "--all-to-all", "--topology", "star:4"))


def test_trace_is_a_dataframe_of_narrow_columns():
    r = starnet.allreduce("star:4", trace=True)
    t = r.trace
    assert len(t) > 0
    assert set(t["event"].cat.categories) >= {"send", "receive"}
    sends = t[t["event"] == "send"]
    assert len(sends) == r.messages
    assert t["node"].dtype == np.uint8 and t["step"].dtype == np.uint8
    assert (t["time"] == t["step"]).all()  # unit time: the time is the step
    assert len(r.transfers) == r.messages
    assert (r.transfers["end"] - r.transfers["start"] == 1).all()


def test_s7_trace_fits_in_48_bytes_per_event():
    r = starnet.allreduce("star:7", trace=True)
    t = r.trace
    assert len(t) >= 105_840
    per_event = t.memory_usage(index=True, deep=True).sum() / len(t)
    assert per_event <= 48, f"{per_event:.1f} bytes per event"


def test_gantt_is_a_figure():
    import matplotlib

    matplotlib.use("Agg")
    fig = starnet.allreduce("star:3", trace=True).gantt()
    assert fig.axes[0].get_title() == "allreduce on star:3: makespan 3"
    # S_4 on 8 rows: a bar a message (6 sends and 6 receives a node), each with its peer's name,
    # coloured by the port it took (ports 0, 1, 2: links 2, 3, 4).
    ax = starnet.allreduce("star:4", trace=True).gantt(max_rows=8).axes[0]
    bars = [p for p in ax.patches if p.get_width() > 0]
    assert len(bars) == 8 * 12
    assert len({p.get_facecolor() for p in bars}) == 3
    assert sorted(t.get_text() for t in ax.texts)[:2] == ["from 1234", "from 1234"]
    with pytest.raises(ValueError, match="trace=True"):
        starnet.allreduce("star:3").gantt()


def test_the_gantt_chart_is_the_command_lines(tmp_path):
    """Both faces draw one chart (api/gantt.hpp): the module's bars are the SVG's, bar for bar."""
    import re

    import matplotlib

    matplotlib.use("Agg")
    svg_path = tmp_path / "s4.svg"
    code, _, err = run_cli("allreduce", "--topology", "star:4", "--gantt", svg_path)
    assert code == 0, err
    svg = svg_path.read_text()
    ax = starnet.allreduce("star:4", trace=True).gantt().axes[0]
    assert ax.get_title() == re.search(r"<title>([^<]*)</title>", svg).group(1)
    assert [t.get_text() for t in ax.get_yticklabels()] == re.findall(r'text-anchor="end">([^<]*)</text>', svg)
    bars = [p for p in ax.patches if p.get_width() > 0]
    assert len(bars) == svg.count('<rect class="bar ')
    svg_colours = re.findall(r'<rect class="bar (?:send|receive)"[^>]*style="fill:(#[0-9A-Fa-f]{6})"', svg)
    assert sorted(matplotlib.colors.to_hex(p.get_facecolor()).upper() for p in bars) == sorted(c.upper() for c in svg_colours)


def test_the_trace_files_are_the_command_lines(tmp_path):
    """--trace FILE --trace-format F and result.save_trace(path, F) write one file (api/trace.hpp)."""
    run = starnet.allreduce("star:3", trace=True)
    for form in ("jsonl", "chrome"):
        path = tmp_path / f"t.{form}"
        code, _, err = run_cli("allreduce", "--topology", "star:3", "--trace", path, "--trace-format", form)
        assert code == 0, err
        run.save_trace(tmp_path / f"p.{form}", form)
        assert (tmp_path / f"p.{form}").read_text() == path.read_text(), form
    assert len(run.trace_text().splitlines()) == len(run.trace)
    with pytest.raises(starnet.InputError, match="format=perfetto: expected jsonl or chrome"):
        run.trace_text("perfetto")
    with pytest.raises(ValueError, match="trace=True"):
        starnet.allreduce("star:3").trace_text()


def test_bad_input_raises_input_error_naming_the_keyword():
    with pytest.raises(starnet.InputError, match=r"workers=-1: expected a number of workers in 1\.\.256"):
        starnet.allreduce("star:4", workers=-1)
    with pytest.raises(starnet.InputError, match=r"timeout=5.*applies only to the zmq engine"):
        starnet.allreduce("star:4", timeout=5)
    with pytest.raises(starnet.InputError, match="op=prod"):
        starnet.allreduce("star:4", op="prod")
    with pytest.raises(starnet.InputError, match="ring:5"):
        starnet.allreduce("ring:5")
    with pytest.raises(ValueError):
        starnet.allreduce("star:13")


def test_table2_is_the_command_lines():
    t = starnet.table2(max_n=6)
    assert [row["measured"] for row in t.rows] == [3, 6, 10, 15]
    assert stable(t.to_dict()) == stable(cli_json("allreduce", "--compare", "--max-n", "6"))


def test_results_have_docstrings():
    for f in (starnet.allreduce, starnet.broadcast, starnet.table2, starnet.Topology, starnet.Schedule,
              starnet.Schedule.run, starnet.Topology.from_networkx):
        assert f.__doc__ and len(f.__doc__) > 40, f


def _free_port():
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_workers_joined_from_python_give_the_local_result(tmp_path):
    import json
    import subprocess
    import threading

    from conftest import starnet_exe

    key = starnet.keygen(tmp_path / "run.key")
    assert (key.stat().st_mode & 0o777) == 0o600
    with pytest.raises(starnet.InputError, match="run.key"):
        starnet.keygen(tmp_path / "run.key")  # never replaced
    where = f"127.0.0.1:{_free_port()}"
    coordinator = subprocess.Popen(
        [starnet_exe(), "allreduce", "--topology", "star:4", "--values", "random", "--seed", "3", "--engine", "zmq",
         "--workers", "2", "--listen", where, "--key-file", str(key), "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    codes = []
    workers = [threading.Thread(target=lambda: codes.append(starnet.worker(where, key, timeout=30))) for _ in range(2)]
    for w in workers:
        w.start()
    out, err = coordinator.communicate(timeout=120)
    for w in workers:
        w.join(timeout=60)
    assert coordinator.returncode == 0, err
    assert codes == [0, 0]
    doc = json.loads(out)
    assert doc["verified"] and doc["curve"] and len(doc["worker_hosts"]) == 2
    assert doc["nodes_verified"] == 24


def test_worker_bad_input_names_the_keyword(tmp_path):
    with pytest.raises(starnet.InputError, match="join=nowhere"):
        starnet.worker("nowhere", tmp_path / "k")
    with pytest.raises(starnet.InputError, match="peer_timeout=0"):
        starnet.worker("127.0.0.1:9", tmp_path / "k", peer_timeout=0)


def test_a_star_run_and_a_gossip_schedule_have_pages():
    r = starnet.allreduce("star:4", trace=True)
    assert isinstance(r.page, starnet.Page) and r.page.verified and r.page.steps == 6
    assert r.page.html.startswith("<!DOCTYPE html>") and "<iframe" in r._repr_html_()
    assert starnet.allreduce("star:4").page is None
    gossip = starnet.optimal("star:4", method="uniform").schedule
    page = gossip.page()
    assert page.verified and page.steps == gossip.steps
    with pytest.raises(starnet.InputError):
        starnet.Schedule.export("ring", "ring:4").page()
