#!/usr/bin/python3
"""Every file path that starnet's docs and comments cite exists in the repository.

    /usr/bin/python3 tests/docs/cited_paths_test.py [SOURCE_DIR] [--list]

Run by ctest as `docs.cited_paths` (tests/CMakeLists.txt) with the standard library alone: it needs
neither a build nor the Python module. Exits 1 listing each broken citation as `FILE:LINE: PATH`,
else 0 with the number of citations checked; `--list` prints every citation and the file it
resolved to.

What is read, in the files git lists (tracked, and new ones it does not ignore):
  - Markdown (README.md, docs/**/*.md, fuzz/README.md) and CMake files (CMakeLists.txt, *.cmake,
    *.cmake.in), whole: a CMake file's code names files too (STARNET_API_DATA_HEADERS);
  - notebooks (docs/notebooks/*.ipynb): the Markdown cells, and the code cells as Python;
  - C++ and JavaScript: the comments (`//`, `/* */`); Python: the comments and docstrings; shell,
    TOML, tools/packages.txt and the like: the `#` comments;
  - outside tests/, also the string literals of C++ and Python, where help texts and messages cite
    the docs (a test's strings are fixtures: `../pair.dot` is a scratch file).

What counts as a citation: a word of letters, digits and `_ . / + - *` that holds a `/` and
  - whose first folder is a top-level folder of the repository, with any ending (`api/src/whatif.cpp`,
    `docs/whatif.md`, `tests/consumer`, `emulator/src/worker.*`); or
  - that ends as a file does (`.cpp .hpp .h .py .md .cmake .txt .json .xml .ipynb .sh`, and the
    repository's `.mjs .in .toml .dot .graphml .dict .supp .html`) and whose first folder is
    `starnet` (the include form `starnet/topology/star_graph.hpp`, also written `<...>`, or the
    Python package, `starnet/_engine.py`), `.` or `..`, or the name of any folder of the repository
    (`generic/ring.hpp`, `src/xml_text.hpp`, `examples/schedules/allreduce.json`: a library's files
    as its own sources cite them, a file from the citing file's folder).
A `#fragment` (a Markdown anchor) and a trailing `.` are dropped; a `*` makes the word a pattern,
which must match a path.

What is not, by design: a URL; an absolute path (`/usr/bin/python3`); a path whose first folder is
none of the above — the build tree (`build/bin/starnet`, `build-pip/`), an install prefix
(`P/lib/cmake/starnet`), another project's files (`lemon/matching.h`, Boost's
`libs/graph/src/read_graphviz_new.cpp`, a system header `<boost/graph/adjacency_list.hpp>`),
ratios and prose (`α/β`, `1/2`, `and/or`); a word holding a placeholder or a shell expansion
(`<folder>`, `{a,b}`, `${PROJECT_SOURCE_DIR}`, `$OUT`, `...`, `~`, and a folder or file named
`NAME` or by a capital letter: `fuzz/corpus/NAME`, `tests/X/P/`, `tools/X_command.cpp`); a path
that climbs out of the repository (`../shared/STYLE.md`, the folder shared beside it); a path git
ignores (`tests/browser/node_modules`: installed, not the repository's); a `./x` without a file's
ending (`./your_program`: a command).

Where a cited path may be: relative to the repository's root; relative to the citing file's
folder; for a library folder X, `X/rest` as `X/include/starnet/X/rest` or `X/src/rest` (the short
form the comments use: `emulator/program.hpp`); for a word whose first folder is not a top-level
one, at the end of any path (`generic/ring.hpp` is algorithms/include/starnet/algorithms/generic/
ring.hpp). A cited folder exists when a listed file is below it.

This file is not read: its docstring names missing paths on purpose.
"""

import ast
import fnmatch
import io
import json
import os
import posixpath
import re
import subprocess
import sys
import tokenize

# How each file is read: whole, as C-like or Python source, or for its `#` comments.
_WHOLE = (".md", ".cmake", ".cmake.in", "CMakeLists.txt")
_C_LIKE = (".cpp", ".hpp", ".h", ".mjs", ".js")
_PYTHON = (".py",)
_HASH = (".sh", ".toml", ".supp", ".txt", "/bootstrap", ".ci/run")

# A word that may be a path, once URLs are removed.
_WORD = re.compile(r"[A-Za-z0-9_./*<>{}$@%~+#?&!-]+")
_URL = re.compile(r"\b[A-Za-z][A-Za-z0-9+.-]*://\S*")
# Marks of a placeholder, a shell expansion or an e-mail address: not a path to check.
_PLACEHOLDER = re.compile(r"[<>{}$@%~?&!]|\.\.\.")
# A folder or file named by a placeholder: tests/X/P/, fuzz/corpus/NAME, tools/X_command.cpp.
_PLACEHOLDER_PART = re.compile(r"(?:[A-Z]|NAME)(?:[_.].*)?$")
# The folder shared beside the repository (../shared/STYLE.md), outside it.
_SHARED = re.compile(r"(?:\.\./)+shared/")
# The endings that make a word a file's path.
_EXTENSIONS = tuple("." + e for e in ("cpp", "hpp", "h", "py", "md", "cmake", "txt", "json", "xml", "ipynb", "sh",
                                      "mjs", "in", "toml", "dot", "graphml", "dict", "supp", "html"))


class Repository:
    """The files git lists and the folders above them: what a citation may name."""

    def __init__(self, root):
        self.root = root
        listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=root,
                                capture_output=True, check=True).stdout.decode("utf-8").split("\0")
        self.files = sorted(p for p in listed if p and os.path.isfile(os.path.join(root, p)))
        self.paths = set(self.files)
        for f in self.files:
            parts = f.split("/")
            self.paths.update("/".join(parts[:i]) for i in range(1, len(parts)))
        folders = self.paths.difference(self.files)
        self.top = {p for p in folders if "/" not in p}
        self.folder_names = {posixpath.basename(p) for p in folders}
        # Library folders X: those with X/include/starnet/X.
        self.libraries = {t for t in self.top if f"{t}/include/starnet/{t}" in folders}

    def find(self, path):
        """@p path if it is listed, else the first listed path the pattern @p path matches, else None."""
        if "*" not in path:
            return path if path in self.paths else None
        return next((p for p in sorted(self.paths) if fnmatch.fnmatchcase(p, path)), None)

    def ignored(self, paths):
        """Those of @p paths that git ignores, as a file or as a folder."""
        asked = "".join(f"{p}\0{p}/\0" for p in sorted(set(paths)))
        out = subprocess.run(["git", "check-ignore", "--no-index", "--stdin", "-z"], cwd=self.root,
                             input=asked.encode("utf-8"), capture_output=True).stdout.decode("utf-8")
        return {p.rstrip("/") for p in out.split("\0") if p}


# ---- the prose of a file: (line, text) pieces ---------------------------------------------------------------------


def _whole(text):
    return list(enumerate(text.splitlines(), 1))


def _c_like(text, strings):
    """The comments of C++ or JavaScript and, when @p strings, its string literals (raw ones too)."""
    out = []
    i, line, n = 0, 1, len(text)

    def take(begin, end, keep):
        nonlocal line
        if keep:
            out.extend((line + k, piece) for k, piece in enumerate(text[begin:end].split("\n")))
        line += text.count("\n", begin, end)

    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            take(i + 2, end, True)
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end
            take(i + 2, end, True)
            i = end + 2
        elif c == "R" and text.startswith('"', i + 1) and not (i and (text[i - 1].isalnum() or text[i - 1] == "_")):
            opening = text.find("(", i + 2)
            closing = ")" + text[i + 2:opening] + '"'
            end = text.find(closing, opening)
            end = n if end < 0 else end
            take(opening + 1, end, strings)
            i = end + len(closing)
        elif c in "\"'`":
            if c == "'" and i and text[i - 1].isalnum() and text[i + 1:i + 2].isalnum():
                i += 1  # C++14's digit separator, not a character literal
                continue
            end = i + 1
            while end < n and text[end] != c and (c == "`" or text[end] != "\n"):
                end += 2 if text[end] == "\\" else 1
            take(i + 1, end, strings)
            i = end + 1
        else:
            i += 1
    return out


def _python(text, strings):
    """The comments and docstrings of Python and, when @p strings, its string literals."""
    out = []
    kept = (tokenize.COMMENT, tokenize.STRING) if strings else (tokenize.COMMENT,)
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type in kept:
                out.extend((token.start[0] + k, piece) for k, piece in enumerate(token.string.split("\n")))
        tree = ast.parse(text)
    except (SyntaxError, tokenize.TokenError):
        return _hash(text)  # a notebook cell with a shell escape or a magic
    if not strings:
        for node in ast.walk(tree):
            body = getattr(node, "body", None)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and body:
                doc = body[0].value if isinstance(body[0], ast.Expr) else None
                if isinstance(doc, ast.Constant) and isinstance(doc.value, str):
                    segment = ast.get_source_segment(text, doc) or ""
                    out.extend((doc.lineno + k, piece) for k, piece in enumerate(segment.split("\n")))
    return out


def _hash(text):
    """`#` comments: a # outside quotes at the start of a word."""
    out = []
    for number, row in enumerate(text.splitlines(), 1):
        quote = None
        for k, c in enumerate(row):
            if quote:
                quote = None if c == quote and row[k - 1] != "\\" else quote
            elif c in "\"'":
                quote = c
            elif c == "#" and (k == 0 or row[k - 1] in " \t(;"):
                out.append((number, row[k + 1:]))
                break
    return out


def _notebook(text):
    """A notebook's Markdown cells and its code cells' comments, numbered `cell N line M`."""
    out = []
    for number, cell in enumerate(json.loads(text).get("cells", []), 1):
        source = "".join(cell.get("source", []))
        pieces = _whole(source) if cell.get("cell_type") == "markdown" else _python(source, strings=False)
        out.extend((f"cell {number} line {line}", piece) for line, piece in pieces)
    return out


def prose(path, text):
    """The (line, text) pieces of @p path that are read for citations."""
    strings = not path.startswith("tests/")
    if path.endswith(_WHOLE):
        return _whole(text)
    if path.endswith(".ipynb"):
        return _notebook(text)
    if path.endswith(_C_LIKE):
        return _c_like(text, strings)
    if path.endswith(_PYTHON):
        return _python(text, strings)
    if path.endswith(_HASH):
        return _hash(text)
    return []


# ---- citations ----------------------------------------------------------------------------------------------------


def words(piece):
    """The words of @p piece that may be paths, without an anchor or the full stop after them."""
    for match in _WORD.finditer(_URL.sub(" ", piece)):
        word = match.group(0).split("#")[0].rstrip(".")
        if word.startswith("<") and word.endswith(">"):
            word = word[1:-1]  # <starnet/api/whatif.hpp>: an include, checked when it is starnet's
        if "/" in word and not _PLACEHOLDER.search(word):
            yield word


def places(repo, citing, word):
    """Where @p word, cited in @p citing, may be; None when it is no citation of this repository."""
    parts = word.rstrip("/").split("/")
    if word.startswith("/") or _SHARED.match(word) or any(map(_PLACEHOLDER_PART.match, parts)):
        return None
    first, rest = parts[0], "/".join(parts[1:])
    beside = posixpath.normpath(posixpath.join(posixpath.dirname(citing), word))
    if first in repo.top:
        found = [posixpath.normpath(word)]
        if first in repo.libraries and rest:
            found += [f"{first}/include/starnet/{first}/{rest}", f"{first}/src/{rest}"]
        return found + [beside]
    if not word.endswith(_EXTENSIONS):
        return None
    if first in (".", ".."):
        return None if beside == ".." or beside.startswith("../") else [beside]
    if first == "starnet" and rest:
        return [f"python/starnet/{rest}", f"{parts[1]}/include/{word}"]
    if first in repo.folder_names:
        return [beside, "*/" + word]
    return None


def check(root, listing=False):
    """(files listed, citations checked, each broken citation as `FILE:LINE: PATH`)."""
    repo = Repository(root)
    this = os.path.relpath(os.path.abspath(__file__), os.path.abspath(root)).replace(os.sep, "/")
    cited = []  # (FILE:LINE, word, where it may be, what it names or None)
    for path in repo.files:
        if path == this:
            continue  # its docstring names missing paths on purpose
        try:
            with open(os.path.join(root, path), encoding="utf-8") as f:
                text = f.read()
        except UnicodeDecodeError:
            continue  # a fuzzing corpus's binary input
        for line, piece in prose(path, text):
            for word in words(piece):
                where = places(repo, path, word)
                if where is not None:
                    hit = next(filter(None, map(repo.find, where)), None)
                    cited.append((f"{path}:{line}", word, where, hit))
    generated = repo.ignored(p for _, _, where, hit in cited if hit is None for p in where)
    checked, broken = 0, []
    for at, word, where, hit in cited:
        if hit is None and generated.intersection(where):
            hit = "(git ignores it: not checked)"
        else:
            checked += 1
            if hit is None:
                broken.append(f"{at}: {word}")
        if listing:
            print(f"{at}: {word} -> {hit or 'MISSING'}")
    return len(repo.files), checked, broken


def main(argv):
    listing = "--list" in argv
    args = [a for a in argv if a != "--list"]
    root = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    files, checked, broken = check(root, listing)
    if files < 300:
        print(f"only {files} files listed in {root}: not the repository")
        return 1
    if broken:
        print(f"{len(broken)} of {checked} cited paths do not exist (FILE:LINE: PATH):")
        print("\n".join(f"  {b}" for b in broken))
        return 1
    print(f"{checked} cited paths in {files} files: each exists")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
