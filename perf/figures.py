"""The figures ``make bench`` measures and the README quotes, written once: never retyped.

A benchmark script hands each figure it measures to :class:`Figures` under a name
(``figures.quote("parser-nltk-cold", f"{ratio:.2f}x")``, which also returns the text so that the
script prints it), and at the end of a full run (not ``--quick``: its figures are of a few
captions) :meth:`Figures.save` writes them into ``docs/benchmarks.md``, the generated file, as the
section of that script: every other script's section stays as it was, so a script run alone
updates its own figures only.

Each figure stands in the file between markers, ``<!-- bench:NAME -->TEXT<!-- /bench:NAME -->``
(a short text inline, a table on lines of its own). The README quotes a figure by the same
markers; :func:`update_readme` (``python perf/figures.py``, run by ``perf/run.py`` after the
scripts) rewrites the text between them from the file. ``tests/test_bench_figures.py`` checks
that every figure the README quotes equals the file's.
"""

from __future__ import annotations

import datetime
import os
import platform
import re
import sys
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The generated file of figures.
FIGURES_FILE = ROOT / "docs" / "benchmarks.md"
#: The file that quotes them.
README = ROOT / "README.md"

HEADER = """\
# Benchmark figures

Written by `make bench` (`perf/run.py`): each section by the script it names, at the end of a
full run, and the figures the README quotes copied there between the same markers
(`perf/figures.py`). Do not edit by hand: run the script again.
"""

#: A quoted figure: ``<!-- bench:NAME -->TEXT<!-- /bench:NAME -->`` (TEXT may span lines).
FIGURE = re.compile(r"<!-- bench:(?P<name>[\w.-]+) -->(?P<text>.*?)<!-- /bench:(?P=name) -->", re.S)
#: A script's section of the file.
SECTION = re.compile(
    r"<!-- section:(?P<name>[\w.-]+) -->\n(?P<body>.*?)<!-- /section:(?P=name) -->\n", re.S
)


def marked(name: str, text: str) -> str:
    """``text`` between the markers of figure ``name`` (a text of several lines on lines of its
    own, so that a Markdown table stays a table)."""
    if "\n" in text:
        text = f"\n{text.strip()}\n"
    return f"<!-- bench:{name} -->{text}<!-- /bench:{name} -->"


def figures_of(text: str) -> dict[str, str]:
    """Figure name -> its text, of every figure marked in ``text`` (a name marked twice must
    stand for the same text)."""
    found: dict[str, str] = {}
    for match in FIGURE.finditer(text):
        name, value = match["name"], match["text"]
        if found.setdefault(name, value) != value:
            raise ValueError(f"figure {name!r} is marked twice with different texts")
    return found


def replace_figures(text: str, figures: Mapping[str, str]) -> tuple[str, list[str]]:
    """``text`` with the text of every marked figure that ``figures`` holds replaced by its text
    there, and the names whose text changed."""
    changed: list[str] = []

    def replace(match: re.Match[str]) -> str:
        name = match["name"]
        if name not in figures or figures[name] == match["text"]:
            return match.group(0)
        changed.append(name)
        return f"<!-- bench:{name} -->{figures[name]}<!-- /bench:{name} -->"

    return FIGURE.sub(replace, text), changed


class Figures:
    """The figures one benchmark script measures, in the order it quotes them."""

    def __init__(self, script: str) -> None:
        self.script = script
        self.lines: list[str] = []
        #: The machine's load when the script started: a shared machine's timings say less.
        self.load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None

    def quote(self, name: str, text: str, what: str) -> str:
        """Record figure ``name`` (``what`` it is, in words) as ``text``; return ``text``."""
        if "\n" in text:  # a block (a table), set apart from the list items around it
            self.lines.append(f"\n{what}:\n\n{marked(name, text)}\n")
        else:
            self.lines.append(f"- {what}: {marked(name, text)}")
        return text

    def section(self) -> str:
        """The script's section of the file: when and where it was measured (the machine's load
        too: timings taken on a busy machine are slower than a quiet one's, quality figures are
        not), then its figures."""
        when = datetime.date.today().isoformat()
        where = f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs visible"
        if self.load is not None:
            where += f", load average {self.load:.1f} at the start"
        body = "\n".join(self.lines)
        return (
            f"<!-- section:{self.script} -->\n## `perf/{self.script}`\n\n"
            f"Measured on {when} ({where}, Python {platform.python_version()}).\n\n"
            f"{body}\n<!-- /section:{self.script} -->\n"
        )

    def save(self, path: Path = FIGURES_FILE) -> None:
        """Write the script's section into ``path`` (created with its header where absent),
        the other sections kept; written to a temporary sibling and renamed into place."""
        text = path.read_text(encoding="utf-8") if path.exists() else HEADER
        sections = {match["name"]: match.group(0) for match in SECTION.finditer(text)}
        sections[self.script] = self.section()
        body = "\n".join(sections[name] for name in sorted(sections))
        temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        temporary.write_text(f"{HEADER}\n{body}", encoding="utf-8")
        temporary.replace(path)


def update_readme(readme: Path = README, figures_file: Path = FIGURES_FILE) -> list[str]:
    """Rewrite every figure ``readme`` quotes from ``figures_file``; return the names changed.
    A figure the README quotes that the file does not hold is an error (a typo in a marker)."""
    figures = figures_of(figures_file.read_text(encoding="utf-8"))
    text = readme.read_text(encoding="utf-8")
    unknown = sorted(set(figures_of(text)) - set(figures))
    if unknown:
        raise ValueError(f"{readme.name} quotes figures {figures_file.name} lacks: {unknown}")
    updated, changed = replace_figures(text, figures)
    if changed:
        temporary = readme.with_name(f".{readme.name}.{os.getpid()}.tmp")
        temporary.write_text(updated, encoding="utf-8")
        temporary.replace(readme)
    return changed


def main() -> int:
    changed = update_readme()
    where = README.relative_to(ROOT)
    print(f"{where}: {len(changed)} figure(s) rewritten from {FIGURES_FILE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
