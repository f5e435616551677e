"""`bindsplit export model-index`: the metadata validates with huggingface_hub's model card
parser and round-trips; a README keeps everything but its model-index."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from huggingface_hub import EvalResult, ModelCard, ModelCardData
from huggingface_hub.repocard_data import (
    eval_results_to_model_index,
    model_index_to_eval_results,
)
from report_records import (
    ALPHA,
    ARO_ALPHA,
    BETA,
    FILE_ALPHA,
    FILE_ARO_ALPHA,
    FILE_BETA,
    write_records,
)

from bindsplit_datasets import cli
from bindsplit_datasets.errors import SchemaError
from bindsplit_datasets.reports.model_index import (
    eval_results,
    format_model_index,
    model_index,
    write_model_index,
)

TASK = {
    "type": "zero-shot-image-classification",
    "name": "Compositional image-text matching (BindSplit)",
}


def test_one_result_per_benchmark_and_configuration() -> None:
    [entry] = model_index([ALPHA, ARO_ALPHA])
    assert entry["name"] == "alpha"
    assert [(r["dataset"]["type"], r["dataset"]["config"]) for r in entry["results"]] == [
        ("bindsplit/bivlc", "full"),
        ("bindsplit/bivlc", "seen"),
        ("bindsplit/bivlc", "unseen"),
        ("bindsplit/aro", "full"),
        ("bindsplit/aro", "seen"),
        ("bindsplit/aro", "unseen"),
    ]
    assert entry["results"][2] == {
        "task": TASK,
        "dataset": {
            "name": "BiVLC (BindSplit unseen)",
            "type": "bindsplit/bivlc",
            "config": "unseen",
            "split": "test",
            "args": {"fingerprint": "f1"},
        },
        "metrics": [
            {
                "type": "i2t_accuracy",
                "value": 50.0,
                "name": "I2T accuracy, % (95% CI [45.0, 55.0], n=10, small n)",
            },
            {
                "type": "t2i_accuracy",
                "value": 30.0,
                "name": "T2I accuracy, % (95% CI [25.0, 35.0], n=10, small n)",
            },
            {
                "type": "group_accuracy",
                "value": 20.0,
                "name": "group accuracy, % (95% CI [15.0, 25.0], n=10, small n)",
            },
        ],
    }
    # the gaps are results on full: seen 70.0 - unseen 50.0, n the smaller count, flagged
    assert [m["type"] for m in entry["results"][0]["metrics"]] == [
        "i2t_accuracy",
        "t2i_accuracy",
        "group_accuracy",
        "i2t_gap_seen_unseen",
        "t2i_gap_seen_unseen",
        "group_gap_seen_unseen",
    ]
    assert entry["results"][0]["metrics"][3] == {
        "type": "i2t_gap_seen_unseen",
        "value": 20.0,
        "name": "I2T gap (seen - unseen), points (95% CI [+10.0, +30.0], n=10, unseen: small n)",
    }
    # 1 image x 2 captions: I2T only
    assert [m["type"] for m in entry["results"][3]["metrics"]] == [
        "i2t_accuracy",
        "i2t_gap_seen_unseen",
    ]
    assert entry["results"][3]["dataset"]["name"] == "ARO VG-Attribution (BindSplit full)"
    assert (
        model_index([ARO_ALPHA], org="my-lab")[0]["results"][0]["dataset"]["type"] == "my-lab/aro"
    )


def test_empty_configurations_and_other_models_are_left_out_or_refused() -> None:
    metrics = {**ALPHA["metrics"], "partial/n": 0}
    assert len(eval_results([{**ALPHA, "metrics": metrics}])) == 9 + 3  # and the gaps
    with pytest.raises(SchemaError, match="one model, but the results are of 2 models"):
        model_index([ALPHA, BETA])
    with pytest.raises(SchemaError, match="several results of 'bivlc'"):
        model_index([ALPHA, ALPHA])
    with pytest.raises(SchemaError, match="no accuracy"):
        model_index([{**ALPHA, "metrics": {"full/n": 0}}])


def test_output_validates_with_huggingface_hub_and_round_trips() -> None:
    text = format_model_index([ALPHA, ARO_ALPHA])
    metadata = yaml.safe_load(text)
    card_data = ModelCardData(ignore_metadata_errors=False, **metadata)
    assert card_data.model_name == "alpha" and len(card_data.eval_results) == 12 + 4
    first = card_data.eval_results[0]
    assert isinstance(first, EvalResult)
    assert (first.dataset_type, first.dataset_config, first.metric_type, first.metric_value) == (
        "bindsplit/bivlc",
        "full",
        "i2t_accuracy",
        80.0,
    )
    assert first.dataset_args == {"fingerprint": "f1"} and first.dataset_split == "test"
    # model-index -> EvalResults -> model-index, and through ModelCardData, unchanged
    name, results = model_index_to_eval_results(metadata["model-index"])
    assert eval_results_to_model_index(name, results) == metadata["model-index"]
    assert card_data.to_dict()["model-index"] == metadata["model-index"]
    assert yaml.safe_load(card_data.to_yaml()) == metadata


README = """\
---
license: apache-2.0
# the model's tags
tags:
- clip
model-index:
- name: old
  results: []
# what it was fine-tuned from
base_model: openai/clip-vit-base-patch32
---
# My CLIP

Text that must survive.
"""


def test_readme_keeps_everything_but_its_model_index(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text(README, encoding="utf-8")
    write_model_index(readme, [ALPHA])
    text = readme.read_text(encoding="utf-8")
    block = format_model_index([ALPHA])
    assert text == README.replace("model-index:\n- name: old\n  results: []\n", block)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["README.md"]
    card = ModelCard(text)
    assert (
        card.data.license == "apache-2.0" and card.data.base_model == "openai/clip-vit-base-patch32"
    )
    assert card.data.model_name == "alpha" and len(card.data.eval_results) == 9 + 3
    assert card.text == "# My CLIP\n\nText that must survive.\n"

    write_model_index(readme, [ARO_ALPHA], org="my-lab")  # replaced again, not appended
    assert readme.read_text(encoding="utf-8").count("model-index:") == 1
    assert ModelCard(readme.read_text(encoding="utf-8")).data.eval_results[0].dataset_type == (
        "my-lab/aro"
    )


def test_readme_without_front_matter_or_missing(tmp_path: Path) -> None:
    plain = tmp_path / "plain.md"
    plain.write_text("# Card\r\nbody\r\n", encoding="utf-8", newline="")
    write_model_index(plain, [ARO_ALPHA])
    raw = plain.read_bytes().decode()
    assert raw.startswith("---\r\nmodel-index:\r\n") and raw.endswith("---\r\n# Card\r\nbody\r\n")
    assert ModelCard(raw).data.model_name == "alpha"

    added = tmp_path / "added.md"
    added.write_text("---\nlicense: mit\n---\nbody\n", encoding="utf-8")
    write_model_index(added, [ARO_ALPHA])
    assert added.read_text().startswith("---\nlicense: mit\nmodel-index:\n- name: alpha\n")

    created = tmp_path / "new" / "README.md"
    write_model_index(created, [ARO_ALPHA])
    assert created.read_text() == f"---\n{format_model_index([ARO_ALPHA])}---\n"

    broken = tmp_path / "broken.md"
    broken.write_text("---\nlicense: mit\n", encoding="utf-8")
    with pytest.raises(SchemaError, match="no closing '---'"):
        write_model_index(broken, [ARO_ALPHA])
    assert broken.read_text() == "---\nlicense: mit\n"


def test_export_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths = write_records(tmp_path, FILE_ALPHA, FILE_ARO_ALPHA)
    assert cli.main(["export", "model-index", *paths]) == 2  # not the canonical builds' results
    assert "are not of the canonical bindsplit/bivlc" in capsys.readouterr().err
    assert cli.main(["export", "model-index", *paths, "--org", "lab"]) == 0
    assert capsys.readouterr().out == format_model_index([FILE_ALPHA, FILE_ARO_ALPHA], org="lab")
    assert cli.main(["export", "model-index", paths[0], "--dataset-id", "me/bivlc-300"]) == 0
    index = yaml.safe_load(capsys.readouterr().out)["model-index"]
    assert {result["dataset"]["type"] for result in index[0]["results"]} == {"me/bivlc-300"}
    readme = tmp_path / "README.md"
    readme.write_text("# card\n")
    assert cli.main(["export", "model-index", *paths, "--readme", str(readme), "--org", "lab"]) == 0
    assert (
        capsys.readouterr().out == f"wrote the model-index of 2 results record(s) into {readme}\n"
    )
    assert ModelCard(readme.read_text()).data.eval_results[0].dataset_type == "lab/bivlc"
    (tmp_path / "beta").mkdir()
    other = write_records(tmp_path / "beta", FILE_BETA)
    assert cli.main(["export", "model-index", paths[0], *other, "--org", "lab"]) == 2
    assert "export each model's results separately" in capsys.readouterr().err
