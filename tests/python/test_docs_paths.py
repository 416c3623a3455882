"""Every file path the docs and the comments cite exists: a cited `api/src/viz.cpp`,
`docs/emulator.md` or `tests/python/conftest.py` is a file of the repository, and the short form
the comments use for a public header, `emulator/program.hpp` for
emulator/include/starnet/emulator/program.hpp, is one too."""

import os
import re
import subprocess

from conftest import SOURCE_DIR

# The repository's top-level folders a citation starts with.
_TOPS = ("api", "algorithms", "core", "emulator", "topology", "tools", "python", "tests", "docs", "fuzz", "cmake",
         ".ci")
_EXTENSIONS = ("hpp", "cpp", "py", "md", "mjs", "json", "ipynb", "cmake", "txt", "sh", "xml", "in")
_CITED = re.compile(r"(?<![\w./-])((?:%s)/[\w./-]*\w\.(?:%s))\b" % ("|".join(map(re.escape, _TOPS)), "|".join(_EXTENSIONS)))
# A path written as a pattern, not a file: tools/X_command.cpp.
_PATTERN = re.compile(r"/[A-Z]_")
_READ = (".md", ".hpp", ".cpp", ".py", ".mjs", ".txt", ".cmake", ".ipynb")


def _exists(path):
    if os.path.exists(os.path.join(SOURCE_DIR, path)):
        return True
    top, _, rest = path.partition("/")
    return any(os.path.exists(os.path.join(SOURCE_DIR, candidate))
               for candidate in (f"{top}/include/starnet/{top}/{rest}", f"{top}/src/{rest}"))


def _files():
    listed = subprocess.run(["git", "ls-files"], cwd=SOURCE_DIR, capture_output=True, text=True, check=True).stdout
    this = os.path.relpath(__file__, SOURCE_DIR)  # its examples cite a missing path on purpose
    return [f for f in listed.split() if (f.endswith(_READ) or os.path.basename(f) == "CMakeLists.txt") and f != this]


def test_every_cited_path_exists():
    files = _files()
    assert len(files) > 300  # the whole repository was read, not an empty listing
    missing = []
    for f in files:
        with open(os.path.join(SOURCE_DIR, f), encoding="utf-8") as text:
            for cited in _CITED.findall(text.read()):
                if not _PATTERN.search(cited) and not _exists(cited):
                    missing.append(f"{f} cites {cited}")
    assert missing == []


def test_a_missing_path_would_be_found():
    assert _CITED.findall("see docs/emulator.md and emulator/program.hpp, not docs/nowhere.md") == [
        "docs/emulator.md", "emulator/program.hpp", "docs/nowhere.md"]
    assert _exists("emulator/program.hpp") and _exists("api/src/viz.cpp") and not _exists("docs/nowhere.md")
