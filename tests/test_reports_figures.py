"""Figures from results records: panels per reported metric, atomic writes, bad requests."""

from __future__ import annotations

import struct
import sys
from pathlib import Path

import pytest
from report_records import (
    ALPHA,
    ARO_ALPHA,
    ARO_GAMMA,
    BIVLC,
    FILE_ALPHA,
    FILE_GAMMA,
    record,
    write_records,
)

from bindsplit_datasets import cli
from bindsplit_datasets.errors import SchemaError
from bindsplit_datasets.reports import panel_metrics, plot_results, results_figure


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_panel_metrics_drop_undefined_ones() -> None:
    assert panel_metrics([ARO_ALPHA, ARO_GAMMA]) == ["i2t"]
    assert panel_metrics([ARO_ALPHA, ALPHA]) == ["i2t", "t2i", "group"]
    assert panel_metrics(BIVLC, metrics=("group",), configs=("unseen",)) == ["group"]


@pytest.mark.slow
def test_plot_writes_a_png_atomically(tmp_path: Path) -> None:
    out = tmp_path / "figure.png"
    assert plot_results([*BIVLC, ARO_ALPHA, ARO_GAMMA], out) == out
    wide = png_size(out)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["figure.png"]  # no temporary left

    # a 1 x 2 benchmark alone: its I2T panel and its gaps, one row
    aro_only = tmp_path / "aro.png"
    plot_results([ARO_ALPHA, ARO_GAMMA], aro_only)
    narrow = png_size(aro_only)
    assert narrow[0] <= wide[0] / 2 and narrow[1] < wide[1]


def test_several_benchmarks_fill_a_grid_of_their_own_panels() -> None:
    """BiVLC (I2T, T2I, group) and ARO (I2T only): one panel per metric a benchmark reports and
    one of its gaps, at most four a row; no empty panel, a figure of sensible size."""
    figure = results_figure([*BIVLC, ARO_ALPHA, ARO_GAMMA])
    titles = [ax.get_title() for ax in figure.axes]
    assert titles == [
        "bivlc: I2T",
        "bivlc: T2I",
        "bivlc: group",
        "bivlc: I2T, T2I, group gap",
        "aro_vga: I2T",
        "aro_vga: I2T gap",
    ]
    assert all(ax.patches for ax in figure.axes)  # every panel has bars
    assert len({ax.get_position().y0 for ax in figure.axes[:4]}) == 1  # four on the first row
    width, height = figure.get_size_inches()
    assert width <= 4 * 7.5 and height <= 2 * 3.4 + 0.6


def test_the_gap_panel_covers_every_metric_in_percentage_points() -> None:
    figure = results_figure(BIVLC)
    gaps = figure.axes[-1]
    ticks = [tick.get_text() for tick in gaps.get_xticklabels()]
    assert [tick.split("\n")[1].split(" (")[0] for tick in ticks] == ["I2T", "T2I", "group"]
    assert "percentage points" in gaps.get_ylabel()
    figure.canvas.draw()
    labels = [tick.get_text() for tick in gaps.get_yticklabels()]
    assert labels and not any("%" in label for label in labels)
    assert any(label.startswith("+") for label in labels)


def test_plot_command_and_other_formats(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths = write_records(tmp_path, FILE_ALPHA, FILE_GAMMA)
    out = tmp_path / "fig.svg"
    assert cli.main(["plot", *paths, "--out", str(out), "--metrics", "i2t", "group"]) == 0
    assert capsys.readouterr().out == f"wrote {out}\n"
    svg = out.read_text(encoding="utf-8")
    assert "<svg" in svg and "bivlc: group" in svg and "bivlc: T2I" not in svg


def test_plot_bad_requests(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"\.png, \.pdf or \.svg"):
        plot_results(BIVLC, tmp_path / "figure.jpg")
    with pytest.raises(FileNotFoundError, match="does not exist"):
        plot_results(BIVLC, tmp_path / "missing" / "figure.png")
    with pytest.raises(SchemaError, match="nothing to plot"):
        plot_results([ARO_ALPHA], tmp_path / "figure.png", metrics=("t2i", "group"))
    assert list(tmp_path.iterdir()) == []


def test_plot_without_matplotlib_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # not installed
    paths = write_records(tmp_path, FILE_ALPHA)
    out = tmp_path / "fig.png"
    assert cli.main(["plot", *paths, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("bindsplit plot: error: a figure needs matplotlib, which cannot be")
    assert (
        "it comes with the 'plot' extra: pip install 'bindsplit-datasets[plot] @ git+https://github.com/bindsplit/bindsplit'"
        in err
    )
    assert not out.exists()


def test_plot_shows_partial_and_balanced_by_default(tmp_path: Path) -> None:
    """The x axis holds the configurations the records report, in the story's order."""
    values = {c: {"i2t": 0.5} for c in ("full", "seen", "partial", "unseen", "balanced")}
    paths = write_records(tmp_path, record("one", values, benchmark="aro_vga"))
    out = tmp_path / "fig.svg"
    assert cli.main(["plot", *paths, "--out", str(out)]) == 0
    svg = out.read_text(encoding="utf-8")
    ticks = [svg.index(f"<!-- {config} -->") for config in values]  # matplotlib's text comments
    assert ticks == sorted(ticks)
    # fewer configurations asked for: only those
    assert cli.main(["plot", *paths, "--out", str(out), "--configs", "full", "seen"]) == 0
    svg = out.read_text(encoding="utf-8")
    assert "<!-- seen -->" in svg and "<!-- partial -->" not in svg


def test_plot_has_a_gap_panel(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The last panel of a row: seen - unseen of the first metric, with n, the small-sample
    flag on values resting on 2 samples; none where its configurations are not drawn."""
    paths = write_records(tmp_path, FILE_ALPHA, FILE_GAMMA)
    out = tmp_path / "fig.svg"
    assert cli.main(["plot", *paths, "--out", str(out), "--metrics", "i2t"]) == 0
    svg = out.read_text(encoding="utf-8")
    assert "bivlc: I2T gap" in svg and "<!-- seen - unseen" in svg and "(n=2)" in svg
    assert "<!-- +33.3* -->" in svg and "<!-- -50.0* -->" in svg  # alpha's and gamma's gaps
    assert cli.main(["plot", *paths, "--out", str(out), "--configs", "full", "seen"]) == 0
    assert "I2T gap" not in out.read_text(encoding="utf-8")
