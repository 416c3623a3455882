"""Settings declared once (api/setting_table.hpp; python/starnet/_settings.py): every row of a call's
table is a keyword of its Python function, with its default, in its signature and its docstring,
and an option of its subcommand in ``--help``; a bad value is refused by both faces with one
message, each naming the setting its own way (``--fail-random``, ``fail_random=``)."""

import inspect
import re

import pytest

import starnet
from starnet import _core
from conftest import run_cli

WHATIF = _core.whatif_settings()
EMULATE = _core.emulate_settings()


def _flag(name):
    return "--" + name.replace("_", "-")


def _words(text):
    """Whitespace as one space (the docstring wraps its lines)."""
    return " ".join(text.split())


def _cli_form(message):
    """(setting, value, reason) of a command-line message, each flag in it as «keyword»."""
    m = re.match(r"--([\w-]+) ?(.*?): (.*)", message)
    assert m, message
    reason = re.sub(r"--([a-z][\w-]*)", lambda f: "«" + f.group(1).replace("-", "_") + "»", m.group(3))
    return m.group(1).replace("-", "_"), m.group(2), reason


def _python_form(message):
    """(setting, value, reason) of a Python message, each ``keyword=`` in it as «keyword»."""
    m = re.match(r"(\w+)=(.*?): (.*)", message)
    assert m, message
    return m.group(1), m.group(2), re.sub(r"\b([a-z]\w*)=", r"«\1»", m.group(3))


@pytest.fixture(scope="module")
def whatif_help():
    code, out, err = run_cli("whatif", "--help")
    assert code == 0, err
    return out


@pytest.mark.parametrize("row", WHATIF, ids=lambda row: row["name"])
def test_every_whatif_setting_is_an_option_and_a_keyword_with_its_default_and_help(row, whatif_help):
    help_text = re.sub(r"«(\w+)»", lambda m: _flag(m.group(1)), row["help"])
    # The description follows the option column, or starts the next line when that column is long.
    option = rf"^  {re.escape(_flag(row['name']))}\b[^\n]*(\n +)?{re.escape(help_text)}$"
    assert re.search(option, whatif_help, re.M), row["name"]
    parameter = inspect.signature(starnet.whatif).parameters[row["name"]]
    assert parameter.default == row["default"]
    doc = _words(starnet.whatif.__doc__)
    assert _words(f"{row['name']} (") in doc
    assert _words(re.sub(r"«(\w+)»", r"``\1``", row["help"])) in doc


@pytest.mark.parametrize("row", EMULATE, ids=lambda row: row["name"])
def test_every_emulate_setting_is_a_keyword_with_its_default_and_help(row):
    parameter = inspect.signature(starnet.emulate).parameters[row["name"]]
    if row["required"]:
        assert parameter.default is inspect.Parameter.empty
    else:
        assert parameter.default == row["default"]
    assert _words(re.sub(r"«(\w+)»", r"``\1``", row["help"])) in _words(starnet.emulate.__doc__)


# A bad value of each type, as Python gives it and as the command line spells it.
BAD = {"whole number": (-1, "-1"), "number": (float("nan"), "nan"), "exact number": (-1, "-1"),
       "choice": ("nosuch", "nosuch")}


@pytest.mark.parametrize("row", [row for row in WHATIF if row["type"] in BAD] + [
    row for row in WHATIF if row["name"] == "collective"], ids=lambda row: row["name"])
def test_a_bad_value_is_refused_by_both_faces_with_one_message(row):
    python_value, text = BAD.get(row["type"], ("scan", "scan"))
    with pytest.raises(starnet.InputError) as python:
        starnet.whatif(topologies=["ring:4"], **{row["name"]: python_value})
    code, _, err = run_cli("whatif", "--topologies", "ring:4", _flag(row["name"]), text, check=False)
    assert code == 2, err
    cli = err.splitlines()[0].removeprefix("starnet: error: ")
    assert _cli_form(cli) == _python_form(str(python.value)), (cli, str(python.value))


def test_a_rule_across_settings_is_the_apis_for_both_faces():
    with pytest.raises(starnet.InputError) as python:
        starnet.whatif(topologies=["ring:4"], seed=7)
    code, _, err = run_cli("whatif", "--topologies", "ring:4", "--seed", "7", check=False)
    assert code == 2
    cli = err.splitlines()[0].removeprefix("starnet: error: ")
    assert _cli_form(cli) == _python_form(str(python.value))
    assert "applies only with" in cli
    with pytest.raises(starnet.InputError, match="optimal_time_limit=5: applies only with optimal="):
        starnet.whatif(topologies=["ring:4"], optimal_time_limit=5)


@pytest.mark.parametrize("call, keyword, nearest", [
    (lambda **k: starnet.whatif(topologies=["ring:4"], **k), "fail_randon", "fail_random"),
    (lambda **k: starnet.whatif(topologies=["ring:4"], **k), "fail_link", "fail_links"),
    (lambda **k: starnet.emulate(starnet.NodeProgram, "ring:4", **k), "max_step", "max_steps"),
])
def test_a_misspelt_keyword_is_an_input_error_naming_it_and_the_nearest(call, keyword, nearest):
    with pytest.raises(starnet.InputError, match=rf"^{keyword}=3: \w+ takes no such setting \(did you mean {nearest}=\?\)"):
        call(**{keyword: 3})


def test_the_python_defaults_are_the_command_lines():
    defaults = {name: p.default for name, p in inspect.signature(starnet.whatif).parameters.items()}
    assert defaults == {"collective": "allreduce", "topologies": None, "ports": 1, "duplex": "full", "costs": "unit",
                        "message_size": 1, "latency": None, "bandwidth": None, "seed": 1, "fail_links": None,
                        "fail_nodes": None, "fail_random": None, "root": 0, "op": "sum", "values": "index",
                        "forwarding": "cut-through", "switch_ports": None, "routing": "minimal",
                        "switch_latency": 0, "placement": "linear", "schedule": None, "optimal": False, "optimal_time_limit": 60.0,
                        "link_report": False, "progress": False}


def test_the_signature_keeps_positional_calls():
    assert list(inspect.signature(starnet.emulate).parameters)[:2] == ["program", "topology"]
    assert list(inspect.signature(starnet.whatif).parameters)[:2] == ["collective", "topologies"]
    frame = starnet.whatif("broadcast", "ring:4,star:3")
    assert set(frame["topology"]) == {"ring:4", "star:3"}
