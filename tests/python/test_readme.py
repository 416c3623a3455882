"""The README's Python lines, run as written: the command that starts the interpreter, and every
`>>>` example with the output the README shows (doctest)."""

import doctest
import os
import re

from conftest import SOURCE_DIR

README = os.path.join(SOURCE_DIR, "README.md")


def from_python_section():
    text = open(README, encoding="utf-8").read()
    start = text.index("## From Python")
    end = text.index("\n## ", start + 1)
    return text[start:end]


def test_the_readme_names_the_interpreter_the_module_is_built_for():
    section = from_python_section()
    # Debian's python3 by its path: a pyenv or venv python3 first on PATH lacks numpy.
    assert "    $ PYTHONPATH=build/python /usr/bin/python3\n" in section
    assert re.search(r"pip install --no-build-isolation \.", section)


def test_the_readme_examples_pass_verbatim():
    # The indented console lines as one doctest; a shell command ($) and its output are not Python.
    lines = []
    shell = False
    for line in from_python_section().splitlines():
        body = line[4:] if line.startswith("    ") else None
        if body is None or body.startswith("$"):
            shell = body is not None
            lines.append("")
            continue
        shell = shell and not body.startswith(">>>")
        lines.append("" if shell else body)
    test = doctest.DocTestParser().get_doctest("\n".join(lines), {}, "README", README, 0)
    assert len(test.examples) >= 8
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0
