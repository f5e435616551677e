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
from .intervals import SMALL_FLAG
from .leaderboard_across import BORDA_CONFIG
from .leaderboard_view import SMALL_N
from .results import METRIC_LABELS, METRICS
from .significance import DEFAULT_CONFIDENCE, METHOD_PAIRED

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
    """The Space's About tab: what is split, the configurations, the tables and their columns,
    the view across benchmarks, the paper, how to submit."""
    configs = "\n".join(
        f"- `{config}`: {meaning}." for config, meaning in CONFIGURATION_MEANINGS.items()
    )
    metrics = ", ".join(f"{METRIC_LABELS[metric]} (`{metric}`)" for metric in METRICS)
    return f"""## About

BindSplit splits compositional vision-language benchmarks by whether the bindings of each sample
were seen in a reference caption corpus (COCO train2017 by default, as a proxy for what a model
saw), so that generalisation is reported apart from memorisation. A binding is an
(attribute, object) pair such as *red car* (attribute builds) or a (subject, relation, object)
triple such as *dog on sofa* (relation builds); a benchmark may have both builds, each its own
split, ranked apart and shown side by side.

### Configurations

{configs}

### The leaderboard

- Each accuracy in percent ({metrics}; a benchmark of one image and two captions has I2T only)
  is shown with its {100 * DEFAULT_CONFIDENCE:g}% interval as distances from it: `84.3 ±4.1`,
  or `88.3 +5.9/-10.5` where the interval is not symmetric (Wilson intervals near 0 or 100%).
  Beside it, `unseen_n` and the like: its number of samples. A click on a header sorts by the
  number.
- `{SMALL_FLAG}` (and a tinted cell): the value rests on fewer than {SMALL_N} samples (small n)
  or on a degenerate count (0/n or n/n correct); its interval is valid, but wide or one-sided.
  A configuration without any sample says `no samples` (it is empty, not small).
- `gap`: seen minus unseen accuracy in points, with its interval; `gap_partial`: seen minus
  partial. A large gap means the model relies on familiar bindings. A gap that cannot be
  computed says why (a side without samples, results that do not report it), and the lines
  under the table say it in full, as they do for an empty configuration.
- `rank` is the rank on `full`; search (words of a model name) hides rows without ranking
  again; the model family filter ranks the chosen models only; the column picker shows or hides
  a configuration, a gap, `n` (every sample count), `binding_kind` and `scored_by`.
- `scored_by`: empty for an encoder scored by BindSplit, `pair scorer` for an image-text
  matching head, `imported` for scores computed elsewhere and imported with `--scores`.
- Under it, one configuration's rows: rank, accuracy, `ci_low`/`ci_high`, `n`, `move` (how many
  places a model moved from its `full` rank, counted only where the models it passed are really
  different: the {METHOD_PAIRED} test over the samples both answered, from complete results
  records; non-overlapping intervals from a results table alone; 0: no move, or one within
  noise), and `flag` (small n, or the degenerate count).

### Across benchmarks

One line per model over the benchmarks it has (one reference corpus and binding kind at a time):
its Borda rank on `{BORDA_CONFIG}` accuracy (on each benchmark with two models or more a model
scores the share of the other models it beats, a tie counting half; `borda` is the mean of those
shares, so a benchmark it lacks counts neither for nor against it, and `benchmarks` says how many
it has; equal scores share a rank), its mean `{BORDA_CONFIG}` accuracy and mean `gap` in points
(n: the samples summed; a mean over benchmarks has no interval), and its `{BORDA_CONFIG}`
accuracy on each benchmark with its interval.

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
