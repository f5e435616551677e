"""The leaderboard Space's texts: the About tab (:func:`about_markdown`) and any text shown as
it is inside Markdown (:func:`escape_markdown`: paths and error messages)."""

from __future__ import annotations

import html
import re

from ..names import (
    CONFIGURATION_MEANINGS,
    INSTALL_COMMAND,
    PAPER_CITATION,
    PAPER_URL,
    REPOSITORY_URL,
    results_dataset_id,
)
from .leaderboard_view import SMALL_N
from .results import METRIC_LABELS, METRICS

__all__ = ["about_markdown", "escape_markdown"]

_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~<>])")


def escape_markdown(text: str) -> str:
    """``text`` shown as it is inside Markdown: HTML and every Markdown marker escaped, one
    line (error messages hold paths with ``_``, ``*`` in globs, ``<...>`` placeholders; model
    ids are other people's text). A ``$`` is set apart in its own ``<span>``: the Space's
    Markdown renders ``$$...$$`` as LaTeX (KaTeX, which ignores a backslash before ``$``) and
    it never matches across elements, so a model id such as ``$$x^{$$`` stays text.

    >>> escape_markdown("records/**/*.json: <benchmark>__<model>")
    'records/\\\\*\\\\*/\\\\*\\\\.json: &lt;benchmark&gt;\\\\_\\\\_&lt;model&gt;'
    >>> escape_markdown("$$x$$")
    '<span>$</span><span>$</span>x<span>$</span><span>$</span>'
    """
    escaped = html.escape(" ".join(text.split()), quote=False)
    return _MARKDOWN_SPECIAL.sub(r"\\\1", escaped).replace("$", "<span>$</span>")


def about_markdown() -> str:
    """The Space's About tab: the configurations, the columns, the paper, how to submit."""
    configs = "\n".join(
        f"- `{config}`: {meaning}." for config, meaning in CONFIGURATION_MEANINGS.items()
    )
    metrics = ", ".join(f"{METRIC_LABELS[metric]} (`{metric}`)" for metric in METRICS)
    return f"""## About

BindSplit splits compositional vision-language benchmarks by whether the (attribute, object)
bindings of each sample were seen in a reference caption corpus (COCO train2017 by default, as a
proxy for what a model saw), so that generalisation is reported apart from memorisation.

### Configurations

{configs}

### Columns

- accuracy in percent ({metrics}; a benchmark of one image and two captions has I2T only),
  with `ci_low`/`ci_high` its interval and `n` its number of samples; `small_n` flags
  fewer than {SMALL_N} samples.
- `gap`: seen minus unseen accuracy in points, with its interval (`gap_low`, `gap_high`);
  `gap_partial`: seen minus partial. A large gap means the model relies on familiar bindings.
- `rank` is the rank on `full`; `move` is how many places a model moved from its `full` rank
  that a significance test backs (positive: up; 0: no move, or one within noise).
- `scored_by`: empty for an encoder scored by BindSplit, `pair scorer` for an image-text
  matching head, `imported` for scores computed elsewhere and imported with `--scores`.

### Paper

Peng et al., 2026, *CLIP Models Generalize Less Than Compositional Benchmarks Suggest*:
{PAPER_URL}. Code: {REPOSITORY_URL}.

```bibtex
{PAPER_CITATION}
```

### How to submit

1. Install BindSplit: `{INSTALL_COMMAND}`.
2. Evaluate: `bindsplit eval --model ORG/MODEL --data bindsplit/bivlc --out-dir results/`
   (or `--scores FILE --name NAME` for scores computed elsewhere).
3. Publish: `bindsplit push-results results/ --repo {results_dataset_id()} --create-pr --yes`
   opens a pull request adding the records to the results dataset this board reads (results of
   the canonical builds only; other results go to your own `--repo ORG/NAME`).
"""
