"""The pairing check: accuracy on rows stored crossed vs straight, exact on hand-made outcomes,
and carried into the record and printout of an evaluation of a VisMin build."""

from __future__ import annotations

import math

import pytest
from fixtures_sources import make_sim_solution, make_vismin_source
from tiny_models import reset_accelerate, tiny_clip

from bindsplit_datasets.builds.builder import build_benchmark
from bindsplit_datasets.evaluation import evaluate_model
from bindsplit_datasets.pairing import format_pairing_check, pairing_check
from bindsplit_datasets.reports import format_record_table

# the model stack (torch, transformers): not part of `make test-fast`


def naive_z(first: list[int], second: list[int]) -> float:
    p1, p2 = sum(first) / len(first), sum(second) / len(second)
    pooled = (sum(first) + sum(second)) / (len(first) + len(second))
    se = math.sqrt(pooled * (1 - pooled) * (1 / len(first) + 1 / len(second)))
    return abs(p1 - p2) / se


def test_groups_accuracies_and_distance_are_exact() -> None:
    crossed = [True] * 4 + [False] * 6
    i2t = [1, 1, 0, 1, 1, 1, 1, 0, 1, 1]
    t2i = [1, 0, 0, 1, 1, 1, 0, 0, 1, 1]
    check = pairing_check(crossed, {"i2t": i2t, "t2i": t2i})
    assert check is not None
    assert check["crossed"]["i2t"] == {"n": 4, "accuracy": 0.75}
    assert check["straight"]["i2t"] == {"n": 6, "accuracy": 5 / 6}
    assert check["crossed"]["group"] == {"n": 4, "accuracy": 0.5}  # i2t and t2i
    assert check["straight"]["t2i"] == {"n": 6, "accuracy": 4 / 6}
    assert check["z"]["i2t"] == pytest.approx(naive_z(i2t[:4], i2t[4:]))
    assert check["suspect"] is False


def test_inverted_ground_truth_on_crossed_rows_is_flagged() -> None:
    # what a wrongly applied solution file looks like: crossed rows almost always wrong
    crossed = [i % 2 == 0 for i in range(200)]
    i2t = [0 if flag else 1 for flag in crossed]
    check = pairing_check(crossed, {"i2t": i2t})
    assert check is not None and check["suspect"] is True and check["z"]["i2t"] > 10
    text = format_pairing_check(check)
    assert "crossed 0.0% (n=100), straight 100.0% (n=100)" in text
    assert text.splitlines()[-1].startswith("warning: crossed and straight rows disagree")


def test_nothing_to_compare_without_both_groups() -> None:
    assert pairing_check([True, True], {"i2t": [1, 0]}) is None
    assert pairing_check([False], {"i2t": [1]}) is None


VISMIN_ROWS = [
    {"text_0": "a red car", "text_1": "a blue car", "category": "attribute"},
    {"text_0": "a white dog", "text_1": "a black dog", "category": "attribute"},
    {"text_0": "a green cup", "text_1": "a yellow cup", "category": "attribute"},
    {"text_0": "a cat", "text_1": "a dog", "category": "object"},
]


def test_an_evaluation_of_a_vismin_build_reports_the_check(tmp_path) -> None:
    categories = [row["category"] for row in VISMIN_ROWS]
    source = make_vismin_source(tmp_path / "vismin.parquet", VISMIN_ROWS, swapped={1, 3})
    solution = make_sim_solution(tmp_path / "solution.csv", categories, swapped={1, 3})
    reference = tmp_path / "reference.txt"
    reference.write_text("a red car on the road\na white dog\n", encoding="utf-8")
    build = build_benchmark(
        "vismin",
        out=tmp_path / "build",
        source=source,
        reference=reference,
        source_options={"sim_solution": solution},
    ).path
    model, processor = tiny_clip()
    reset_accelerate()
    try:
        record = evaluate_model(model, build, processor=processor, n_bootstrap=0)
    finally:
        reset_accelerate()
    check = record["pairing_check"]
    assert check["crossed"]["i2t"]["n"] == 2 and check["straight"]["i2t"]["n"] == 2
    samples = record["samples"]
    expected = pairing_check([False, True, False, True], samples)
    assert check == expected
    assert "pairing check (rows stored crossed vs straight" in format_record_table(record)
