"""The two faces give one answer: for every subcommand with a JSON document, the Python call's
to_dict() (or a study frame's document) equals `starnet … --json` for the same input. Both are
the same api call's document (docs/architecture.md); this catches a face that builds its request
differently."""

import os

import pytest

import starnet
from conftest import SOURCE_DIR, cli_json, run_cli, stable

GOLDEN = os.path.join(SOURCE_DIR, "tests", "tools", "golden")


def _document(result):
    return result.attrs["document"] if hasattr(result, "attrs") else result.to_dict()


FIGURE2 = os.path.join(GOLDEN, "steady_figure2.dot")

CASES = {
    "topo info": (lambda: starnet.Topology("pancake:5").info, ["topo", "info", "pancake:5"]),
    "topo compare": (lambda: starnet.table1(), ["topo", "compare", "--paper", "table1"]),
    "allreduce": (lambda: starnet.allreduce("star:4", op="max", values="random", seed=7),
                  ["allreduce", "--topology", "star:4", "--op", "max", "--values", "random", "--seed", "7"]),
    "allreduce --compare": (lambda: starnet.table2(max_n=5), ["allreduce", "--compare", "--max-n", "5"]),
    "broadcast": (lambda: starnet.broadcast("star:4"), ["broadcast", "--all-to-all", "--topology", "star:4"]),
    "whatif": (lambda: starnet.whatif(collective="alltoall", topologies=["torus:3x3", "complete:1", "bubblesort:4"],
                                      latency="1/10", bandwidth=4, message_size=8),
               ["whatif", "--collective", "alltoall", "--topologies", "torus:3x3,complete:1,bubblesort:4", "--latency",
                "1/10", "--bandwidth", "4", "--message-size", "8"]),
    "optimal": (lambda: starnet.optimal("ring:5", collective="broadcast", root=2),
                ["optimal", "--topology", "ring:5", "--collective", "broadcast", "--root", "2"]),
    "optimal --method uniform": (lambda: starnet.optimal("star:4", collective="gossip", method="uniform"),
                                 ["optimal", "--topology", "star:4", "--collective", "gossip", "--method", "uniform"]),
    "montecarlo": (lambda: starnet.montecarlo(n=8, runs=40, seed=3, dist="gamma", cv=1),
                   ["montecarlo", "--n", "8", "--runs", "40", "--seed", "3", "--dist", "gamma", "--cv", "1"]),
    "markov": (lambda: starnet.markov(7, "3/2"), ["markov", "--n", "7", "--rate", "3/2"]),
    "reduce": (lambda: starnet.reduce("fibonacci", n=8, d="3/2", c=1),
               ["reduce", "--algo", "fibonacci", "--n", "8", "--d", "3/2", "--c", "1"]),
    "reduce --study figure2": (lambda: starnet.reduce(study="figure2", max_n=40),
                               ["reduce", "--study", "figure2", "--max-n", "40"]),
    "steady scatter": (lambda: starnet.steady.scatter(FIGURE2, source="Ps", targets=["P0", "P1"]),
                       ["steady", "scatter", "--topology", FIGURE2, "--source", "Ps", "--targets", "P0,P1"]),
    "steady reduce": (lambda: starnet.steady.reduce(FIGURE2, participants=["Pa", "Pb", "P0"], target="P0"),
                      ["steady", "reduce", "--topology", FIGURE2, "--participants", "Pa,Pb,P0", "--target", "P0"]),
    "steady gossip": (lambda: starnet.steady.gossip(FIGURE2, sources=["Ps", "Pa"], targets=["P0", "P1"]),
                      ["steady", "gossip", "--topology", FIGURE2, "--sources", "Ps,Pa", "--targets", "P0,P1"]),
    "montecarlo --study": (lambda: starnet.montecarlo(study="figure5", n=8, runs=10, points=3, ratio_points=2),
                           ["montecarlo", "--study", "figure5", "--n", "8", "--runs", "10", "--points", "3",
                            "--ratio-points", "2"]),
    "montecarlo --worst-case": (lambda: starnet.montecarlo(worst_case=True), ["montecarlo", "--worst-case"]),
    "schedule run": (lambda: starnet.Schedule.export("ring", "ring:6", collective="allgather").run(),
                     None),  # the CLI runs the exported file: below
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_python_and_the_command_line_give_the_same_document(name, tmp_path):
    call, args = CASES[name]
    if args is None:  # schedule run: export with the CLI, run the file with both faces
        path = tmp_path / "ring.json"
        export = ["schedule", "export", "--algorithm", "ring", "--topology", "ring:6", "--collective", "allgather",
                  "-o", str(path)]
        code, _, err = run_cli(*export)
        assert code == 0, err
        python, cli = starnet.Schedule.load(path).run(), cli_json("schedule", "run", str(path))
    else:
        python, cli = call(), cli_json(*args)
    assert stable(_document(python)) == stable(cli), name


@pytest.mark.parametrize("face", ["python/src", "tools"])
def test_each_face_includes_nothing_below_the_api(face):
    """python/src and tools/ reach starnet only through starnet::api's headers (docs/architecture.md;
    configuring checks it too: starnet_face_includes_only_api in cmake/StarnetTargets.cmake)."""
    import re

    folder = os.path.join(SOURCE_DIR, *face.split("/"))
    below = []
    for name in sorted(os.listdir(folder)):
        if not name.endswith((".cpp", ".hpp")):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                m = re.match(r'\s*#\s*include\s*[<"]((?:starnet/|\.\./)[^>"]+)[>"]', line)
                if m and not m.group(1).startswith("starnet/api/"):
                    below.append(f"{face}/{name}:{number}: {m.group(1)}")
    assert not below, "\n".join(below)


def test_api_headers_include_only_data_below_the_api():
    """starnet::api's public headers include the data of starnet::algorithms and starnet::emulator
    (requests and results), never their machinery: only the headers cmake/StarnetTargets.cmake lists
    (configuring checks it too: starnet_api_headers_include_only_data)."""
    import re

    with open(os.path.join(SOURCE_DIR, "cmake", "StarnetTargets.cmake"), encoding="utf-8") as f:
        cmake = f.read()
    allowed = set()
    m = re.search(r"^set\(STARNET_API_DATA_HEADERS\n(.*?)^\)", cmake, re.M | re.S)
    assert m, "STARNET_API_DATA_HEADERS is not set in cmake/StarnetTargets.cmake"
    allowed |= {line.split("#")[0].strip() for line in m.group(1).splitlines()} - {""}
    folder = os.path.join(SOURCE_DIR, "api", "include", "starnet", "api")
    machinery = []
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                m = re.match(r'\s*#\s*include\s*[<"]starnet/((?:algorithms|emulator)/[^>"]+)[>"]', line)
                if m and m.group(1) not in allowed:
                    machinery.append(f"api/include/starnet/api/{name}:{number}: {m.group(1)}")
    assert not machinery, "\n".join(machinery)


def test_a_schedule_beside_the_papers_broadcast_is_the_command_lines(tmp_path):
    """broadcast(…, schedule=FILE) and `broadcast --all-to-all --schedule FILE`: one api call's document."""
    path = tmp_path / "gossip4.json"
    starnet.optimal("star:4", method="uniform").schedule.save(path)
    python = starnet.broadcast("star:4", schedule=path)
    assert python.verified and python.schedule["no_duplicates"] and python.schedule["steps"] <= python.paper["steps"] == 6
    cli = cli_json("broadcast", "--all-to-all", "--topology", "star:4", "--schedule", str(path))
    assert stable(python.to_dict()) == stable(cli)
    with pytest.raises(starnet.InputError, match="schedule=.*expected a stepped all-gather"):
        starnet.Schedule.export("bfs-tree", "star:3", collective="reduce").save(tmp_path / "r.json")
        starnet.broadcast("star:3", schedule=tmp_path / "r.json")


def _datablock(script, name):
    """The rows of datablock ``$name`` in a gnuplot script the command line kept beside its figure."""
    text = script.split(f"${name} << EOD\n", 1)[1].split("\nEOD\n", 1)[0]
    return [[float(v) for v in line.split()] for line in text.splitlines() if line and not line.startswith("#")]


@pytest.mark.parametrize("python_call, cli_args", [
    (lambda: starnet.montecarlo(study="figure4", n=8, runs=20, points=3),
     ["montecarlo", "--study", "figure4", "--n", "8", "--runs", "20", "--points", "3"]),
    (lambda: starnet.montecarlo(study="figure5", n=8, runs=10, points=3, ratio_points=2),
     ["montecarlo", "--study", "figure5", "--n", "8", "--runs", "10", "--points", "3", "--ratio-points", "2"]),
    (lambda: starnet.reduce(study="figure2", max_n=50), ["reduce", "--study", "figure2", "--max-n", "50"]),
], ids=["figure4", "figure5", "figure2"])
def test_a_figures_data_is_what_the_command_lines_plot_draws(tmp_path, python_call, cli_args):
    """A study's attrs["figure"] and the datablock of `--plot`'s script: one api call's table
    (api/figures.hpp), value for value (the script keeps 9 significant digits)."""
    import numpy as np

    figure = python_call().attrs["figure"]
    plot = tmp_path / "figure.svg"
    run_cli(*cli_args, "--plot", str(plot))
    drawn = np.array(_datablock((tmp_path / "figure.gp").read_text(), figure.attrs["name"]))
    numbers = figure.drop(columns="block")
    for column in numbers.columns:
        if str(numbers[column].dtype) == "category":
            numbers[column] = numbers[column].cat.codes.astype(float).where(numbers[column].notna())
    assert drawn.shape == numbers.shape
    np.testing.assert_allclose(drawn, numbers.to_numpy(dtype=float), rtol=1e-8, equal_nan=True)
    assert figure["block"].nunique() >= 1 and figure.attrs["title"]


def test_whatifs_figure_is_what_the_command_lines_plot_draws(tmp_path):
    """whatif's attrs["figure"] (api::whatif_figure) and `whatif --plot`'s datablocks: a block per
    algorithm with each bar's value, the groups' bounds, and a mark for a row that did not run."""
    frame = starnet.whatif(collective="allreduce", topologies=["star:4", "ring:6"])
    figure = frame.attrs["figure"]
    assert figure.attrs["quantity"] == "steps" and not figure.attrs["log_scale"]
    assert list(figure["algorithm"]) == list(frame["algorithm"])
    ran = figure.dropna(subset=["value"])
    assert list(ran["value"]) == list(frame.dropna(subset=["steps"])["steps"])
    plot = tmp_path / "whatif.svg"
    run_cli("whatif", "--collective", "allreduce", "--topologies", "star:4,ring:6", "--plot", str(plot))
    script = (tmp_path / "whatif.gp").read_text()
    for algorithm, bars in ran.groupby("algorithm", sort=False):
        drawn = [row[1] for row in _datablock(script, algorithm.replace("-", "_"))]
        assert drawn == list(bars["value"]), algorithm
    bounds = [row[1] for row in _datablock(script, "bounds")]
    assert bounds == list(figure.groupby("group", sort=False)["bound"].first())
    if figure["value"].isna().any():
        assert "n/a" in script
