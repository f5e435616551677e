"""The folder layout of a build, written from rows for tests: a Parquet shard per configuration and
the README whose ``configs:`` block declares them (what ``load_dataset(folder, config)`` reads).
Light (``datasets`` and ``yaml`` only), so that test modules without the model stack use it too."""

from __future__ import annotations

from pathlib import Path

import datasets
import yaml


def write_configurations(
    folder: Path, dataset: datasets.Dataset, configs: tuple[str, ...], title: str
) -> dict[str, int]:
    """A Parquet shard per configuration (``full`` all rows, any other the rows of that
    ``bindsplit_label``) and the README whose ``configs:`` block declares them, as a build writes
    them; the rows per configuration."""
    from bindsplit_datasets.builds.features import LABEL_FEATURE

    labels = dataset["bindsplit_label"]
    sizes = {}
    for config in configs:
        keep = [
            i
            for i, lab in enumerate(labels)
            if config == "full" or lab == LABEL_FEATURE.str2int(config)
        ]
        rows = dataset.select(keep)
        (folder / config).mkdir(parents=True)
        rows.to_parquet(str(folder / config / "test-00000-of-00001.parquet"))
        sizes[config] = len(rows)
    card = {
        "configs": [
            {
                "config_name": config,
                "data_files": [{"split": "test", "path": f"{config}/test-*.parquet"}],
                **({"default": True} if config == "full" else {}),
            }
            for config in configs
        ]
    }
    (folder / "README.md").write_text(f"---\n{yaml.safe_dump(card)}---\n# {title}\n")
    return sizes
