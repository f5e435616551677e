"""The README's benchmark figures are those `make bench` wrote into docs/benchmarks.md.

Each benchmark script quotes the figures it measures by name (``perf/figures.py``); a full run
writes them into its section of the generated file, and ``perf/run.py`` copies them to where the
README quotes them, between ``<!-- bench:NAME -->`` markers. Checked here: every figure the README
quotes equals the file's, and the writing and copying themselves on hand-made files.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _figures_module():
    """``perf/figures.py`` imported as a module (``perf/`` is not a package)."""
    if "perf_figures" not in sys.modules:
        spec = importlib.util.spec_from_file_location("perf_figures", ROOT / "perf" / "figures.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
    return sys.modules["perf_figures"]


figures = _figures_module()


def test_every_figure_the_readme_quotes_is_the_generated_files():
    quoted = figures.figures_of(figures.README.read_text(encoding="utf-8"))
    written = figures.figures_of(figures.FIGURES_FILE.read_text(encoding="utf-8"))
    # the parser's and the relation parser's quality tables, the engines, the scorer, ...
    tables = {"parser-quality", "relations-quality", "reference-engines"}
    assert tables | {"scoring-raw", "parser-nltk-cold"} <= set(quoted)
    assert len(quoted) >= 20
    assert {name: written.get(name) for name in quoted} == quoted


def test_each_section_of_the_generated_file_is_a_benchmark_script():
    text = figures.FIGURES_FILE.read_text(encoding="utf-8")
    sections = [match["name"] for match in figures.SECTION.finditer(text)]
    assert sections == sorted(sections) and sections
    assert all((ROOT / "perf" / name).is_file() for name in sections)
    assert text.startswith(figures.HEADER)


def test_a_script_rewrites_its_own_section_and_the_readme_follows(tmp_path):
    generated, readme = tmp_path / "benchmarks.md", tmp_path / "README.md"
    parser = figures.Figures("bench_parser.py")
    assert parser.quote("speed", "3.46x", "ratio") == "3.46x"  # printed as well
    parser.quote("table", "| a | b |\n|---|---|\n| 1 | 2 |", "a table")
    parser.save(generated)
    other = figures.Figures("bench_other.py")
    other.quote("rate", "14,100", "captions a second")
    other.save(generated)
    readme.write_text(
        "runs at <!-- bench:speed -->3.04x<!-- /bench:speed --> (old), and\n\n"
        "<!-- bench:table -->\n| a | b |\n|---|---|\n| 0 | 0 |\n<!-- /bench:table -->\n",
        encoding="utf-8",
    )
    assert figures.update_readme(readme, generated) == ["speed", "table"]
    assert readme.read_text(encoding="utf-8") == (
        "runs at <!-- bench:speed -->3.46x<!-- /bench:speed --> (old), and\n\n"
        "<!-- bench:table -->\n| a | b |\n|---|---|\n| 1 | 2 |\n<!-- /bench:table -->\n"
    )
    assert figures.update_readme(readme, generated) == []  # nothing left to change

    # the parser again, with a new figure: its section is replaced, the other one kept
    again = figures.Figures("bench_parser.py")
    again.quote("speed", "3.50x", "ratio")
    again.save(generated)
    written = figures.figures_of(generated.read_text(encoding="utf-8"))
    assert written == {"speed": "3.50x", "rate": "14,100"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["README.md", "benchmarks.md"]

    # a README quoting a figure no script wrote: a typo in a marker, refused
    readme.write_text("<!-- bench:table -->x<!-- /bench:table -->", encoding="utf-8")
    with pytest.raises(ValueError, match=r"quotes figures benchmarks.md lacks: \['table'\]"):
        figures.update_readme(readme, generated)


def test_a_figure_marked_twice_must_read_the_same():
    text = "<!-- bench:a -->1<!-- /bench:a --> <!-- bench:a -->2<!-- /bench:a -->"
    with pytest.raises(ValueError, match="marked twice"):
        figures.figures_of(text)
    assert figures.figures_of(text.replace(">2<", ">1<")) == {"a": "1"}
