"""The Hub's evaluation results: a build's eval.yaml, a model's .eval_results files (parsed back
with huggingface_hub's own reader), the export command and the dataset card section."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from huggingface_hub import parse_eval_result_entries
from report_records import ALPHA, ARO_ALPHA, BETA, FILE_ALPHA, FILE_ARO_ALPHA, write_records

from bindsplit_datasets import cli, metric_core
from bindsplit_datasets.errors import OutputExistsError, SchemaError
from bindsplit_datasets.reports.eval_results import (
    EVAL_RESULTS_FOLDER,
    HEADER,
    card_section,
    eval_config,
    eval_results,
    format_eval_config,
    write_eval_results,
)

#: What eval.yaml reads of a build: its own manifest (no adapter is asked).
BIVLC_COLUMNS = {"image": ["image", "negative_image"], "caption": ["caption", "negative_caption"]}
ARO_COLUMNS = {"image": ["image"], "caption": ["true_caption", "false_caption"]}
BIVLC_BUILD = {
    "benchmark": "bivlc",
    "pretty_name": "BiVLC",
    "configs": {"full": 10, "seen": 6, "unseen": 0},
    "columns": BIVLC_COLUMNS,
}
ARO_BUILD = {
    "benchmark": "aro_vga",
    "pretty_name": "ARO VG-Attribution",
    "configs": {"full": 10, "seen": 6, "unseen": 2},
    "columns": ARO_COLUMNS,
}


def test_eval_config_has_one_task_per_configuration_and_metric() -> None:
    config = yaml.safe_load(format_eval_config(BIVLC_BUILD))
    assert config == eval_config(BIVLC_BUILD)
    assert config["name"] == "BindSplit BiVLC" and config["evaluation_framework"] == "bindsplit"
    assert config["tasks"] == [
        {"id": f"{c}_{m}", "config": c, "split": "test"}
        for c in ("full", "seen")  # unseen is empty here
        for m in ("i2t", "t2i", "group")
    ]
    aro = eval_config(ARO_BUILD)
    assert [task["id"] for task in aro["tasks"]] == [
        "full_i2t",
        "seen_i2t",
        "unseen_i2t",
        "gap_seen_unseen_i2t",  # seen and unseen both hold samples: their gap, on full
    ]
    assert aro["tasks"][-1] == {"id": "gap_seen_unseen_i2t", "config": "full", "split": "test"}
    assert "T2I" not in aro["description"] and "I2T accuracy" in aro["description"]


def test_eval_results_are_the_hubs_format() -> None:
    files = eval_results([ALPHA, ARO_ALPHA], source_url="https://hf.co/datasets/lab/results")
    assert list(files) == ["bivlc.yaml", "aro.yaml"]
    entries = parse_eval_result_entries(files["bivlc.yaml"])  # huggingface_hub's own reader
    assert len(entries) == 9 + 3  # and the seen - unseen gaps
    first = entries[0]
    assert (first.dataset_id, first.task_id, first.value) == ("bindsplit/bivlc", "full_i2t", 80.0)
    assert first.source_url == "https://hf.co/datasets/lab/results"
    # an older record: its intervals were a 95% bootstrap
    assert first.notes == (
        "I2T accuracy (%) on full, 95% CI [75.0, 85.0] (bootstrap), n=100, build f1"
    )
    gap = entries[9]
    assert (gap.task_id, gap.value) == ("gap_seen_unseen_i2t", 20.0)
    assert gap.notes == (
        "I2T gap (points), seen - unseen, 95% CI [+10.0, +30.0] (bootstrap), n=10, "
        "unseen: small n, build f1"
    )
    assert files["bivlc.yaml"][0]["evaluation_framework"] == "bindsplit"
    assert "verify_token" not in files["bivlc.yaml"][0]  # the Hub's key is verifyToken
    # every task a model reports is one the dataset's eval.yaml declares
    declared = {
        t["id"]
        for t in eval_config(
            {
                "benchmark": "bivlc",
                "configs": {"full": 1, "seen": 1, "unseen": 1},
                "columns": BIVLC_COLUMNS,
            }
        )["tasks"]
    }
    assert {entry.task_id for entry in entries} <= declared
    aro = parse_eval_result_entries(files["aro.yaml"])
    assert [(e.dataset_id, e.task_id, e.value) for e in aro] == [
        ("bindsplit/aro", "full_i2t", 90.0),
        ("bindsplit/aro", "seen_i2t", 70.0),
        ("bindsplit/aro", "unseen_i2t", 60.0),
        ("bindsplit/aro", "gap_seen_unseen_i2t", 10.0),
    ]
    assert eval_results([ARO_ALPHA], org="lab")["aro.yaml"][0]["dataset"]["id"] == "lab/aro"


def test_eval_results_refuse_several_models_or_builds() -> None:
    with pytest.raises(SchemaError, match="export each model's results separately"):
        eval_results([ALPHA, BETA])
    with pytest.raises(SchemaError, match="one record per benchmark"):
        eval_results([ALPHA, ALPHA])


def test_write_into_a_model_folder_never_replaces_a_foreign_file(tmp_path: Path) -> None:
    written = write_eval_results(tmp_path, [ALPHA, ARO_ALPHA])
    assert [path.name for path in written] == ["bivlc.yaml", "aro.yaml"]
    text = (tmp_path / EVAL_RESULTS_FOLDER / "bivlc.yaml").read_text(encoding="utf-8")
    assert text.startswith(HEADER) and len(yaml.safe_load(text)) == 9 + 3
    assert write_eval_results(tmp_path, [ALPHA]) == [written[0]]  # ours: replaced
    (tmp_path / EVAL_RESULTS_FOLDER / "aro.yaml").write_text("- mine\n", encoding="utf-8")
    with pytest.raises(OutputExistsError, match="was not written by BindSplit"):
        write_eval_results(tmp_path, [ARO_ALPHA])
    assert (tmp_path / EVAL_RESULTS_FOLDER / "aro.yaml").read_text() == "- mine\n"


def test_export_eval_results_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths = write_records(tmp_path, FILE_ALPHA, FILE_ARO_ALPHA)
    # results of local builds are not reported as the canonical bindsplit/<benchmark>
    assert cli.main(["export", "eval-results", *paths]) == 2
    err = capsys.readouterr().err
    assert "are not of the canonical bindsplit/bivlc" in err and "--dataset-id" in err
    assert cli.main(["export", "eval-results", *paths, "--org", "lab"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# .eval_results/bivlc.yaml\n" + HEADER) and "# .eval_results/aro" in out
    model = tmp_path / "model"
    assert cli.main(["export", "eval-results", *paths, "--out", str(model), "--org", "lab"]) == 0
    assert capsys.readouterr().out.count("wrote ") == 2
    aro = yaml.safe_load((model / EVAL_RESULTS_FOLDER / "aro.yaml").read_text(encoding="utf-8"))
    assert aro[0]["dataset"] == {"id": "lab/aro", "task_id": "full_i2t"}
    argv = ["export", "eval-results", "--dataset-id", "me/bivlc-300", paths[0]]
    assert cli.main(argv) == 0
    assert yaml.safe_load(capsys.readouterr().out.split("\n", 1)[1])[0]["dataset"]["id"] == (
        "me/bivlc-300"
    )
    assert cli.main([*argv, paths[1]]) == 2  # one dataset id for two benchmarks
    assert "export each benchmark's results separately" in capsys.readouterr().err


def test_eval_config_reads_the_build_not_the_adapter() -> None:
    """A build of a benchmark this installation does not know still has its tasks: the
    manifest's columns say how many images a sample has, its pretty_name names it."""
    unknown = {**BIVLC_BUILD, "benchmark": "not_registered", "pretty_name": "Mine"}
    config = eval_config(unknown)
    assert config["name"] == "BindSplit Mine"
    assert [task["id"] for task in config["tasks"]][:3] == ["full_i2t", "full_t2i", "full_group"]
    one_image = {**unknown, "columns": ARO_COLUMNS}
    assert [task["id"] for task in eval_config(one_image)["tasks"]] == ["full_i2t", "seen_i2t"]
    assert eval_config({**one_image, "pretty_name": None})["name"] == "BindSplit not_registered"


def test_card_section_names_the_tasks() -> None:
    text = card_section(ARO_BUILD, "lab/aro")
    assert text.startswith("## Leaderboard")
    assert "`full_i2t`, `seen_i2t`, `unseen_i2t`" in text and "`lab/aro`" in text


def test_eval_results_of_a_new_record_say_method_level_and_flags() -> None:
    """Seen 0 of 10, unseen 1 of 10, partial 10 of 10 (one image each), at 90%."""
    stats = metric_core.BindsplitStatistics(
        splits={
            "seen": (0, 0, 10, 0, 0, 0),
            "unseen": (0, 0, 9, 0, 0, 1),
            "partial": (0, 0, 0, 0, 0, 10),
        }
    )
    record = {**ARO_ALPHA, "metrics": metric_core.compute_metrics(stats, confidence=0.9)}
    entries = eval_results([record])["aro.yaml"]
    notes = {entry["dataset"]["task_id"]: entry["notes"] for entry in entries}
    assert notes["seen_i2t"] == (
        "I2T accuracy (%) on seen, 90% CI [0.0, 21.3] (Wilson), n=10, small n, build a1"
    )
    assert notes["gap_seen_partial_i2t"] == (
        "I2T gap (points), seen - partial, 90% CI [-100.0, -69.9] (Newcombe), n=10, seen: small n, "
        "build a1"
    )
    declared = {
        task["id"]
        for task in eval_config(
            {**ARO_BUILD, "configs": {"full": 30, "seen": 10, "unseen": 10, "partial": 10}}
        )["tasks"]
    }
    assert set(notes) == declared


def test_none_right_of_many_is_a_degenerate_count_not_a_small_n() -> None:
    """0 of 300 right on seen (and 300 of 300 on partial): n is not small, so the flag says
    what it is, the count (``reports.intervals.sample_flag``); the gap between them names its
    flagged side."""
    stats = metric_core.BindsplitStatistics(
        splits={"seen": (0, 0, 300, 0, 0, 0), "partial": (0, 0, 0, 0, 0, 300)}
    )
    record = {**ARO_ALPHA, "metrics": metric_core.compute_metrics(stats)}
    entries = eval_results([record])["aro.yaml"]
    notes = {entry["dataset"]["task_id"]: entry["notes"] for entry in entries}
    assert "n=300, 0/300 correct, build" in notes["seen_i2t"]
    assert "n=300, seen: 0/300 correct, build" in notes["gap_seen_partial_i2t"]
    assert not any("small n" in note for note in notes.values())
