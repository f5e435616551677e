"""Hugging Face Space of the BindSplit metric: paste samples as JSON, get the metric's results.

Runs as ``python app.py`` (what a gradio Space does) with the gradio version named by
``sdk_version`` in README.md. The computation is the metric's own core (``bindsplit_core.py`` and
``bindsplit_bootstrap.py``, the modules ``bindsplit.py`` wraps for evaluate), so the Space needs
only numpy besides gradio.
The endpoint ``/compute`` is also callable with ``gradio_client``:

    Client(URL).predict(samples_json, 1000, 0.95, 0, 25, api_name="/compute")

``GRADIO_SERVER_NAME`` and ``GRADIO_SERVER_PORT`` choose where it listens (gradio's defaults:
127.0.0.1:7860; a Space sets them itself).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import gradio as gr
from bindsplit_bootstrap import compute_metrics
from bindsplit_core import accumulate

INPUTS = ("scores", "split", "category", "macro_group", "balanced", "hard_positives")
"""The keys of the samples JSON: the metric's inputs (the first two required)."""

EXAMPLE = {
    "scores": [[[0.9, 0.1], [0.2, 0.8]], [[0.6, 0.7], [0.1, 0.8]], [[0.5, 0.5]], [[0.4, 0.6]]],
    "split": ["seen", "seen", "unseen", "unseen"],
}


def _card() -> str:
    """The metric card (README.md) without its YAML front matter."""
    text = (Path(__file__).resolve().parent / "README.md").read_text(encoding="utf-8")
    return text.split("---", 2)[2] if text.startswith("---") else text


def parse_samples(samples_json: str) -> dict[str, Any]:
    """The metric inputs of a JSON object {"scores": [...], "split": [...], ...}; a ValueError
    names what is wrong."""
    try:
        samples = json.loads(samples_json)
    except json.JSONDecodeError as error:
        raise ValueError(f"the samples are not valid JSON ({error})") from None
    if not isinstance(samples, dict) or not {"scores", "split"} <= set(samples):
        raise ValueError(
            'the samples must be a JSON object with "scores" and "split" lists (and optionally '
            '"category", "macro_group", "balanced", "hard_positives"), one entry per sample'
        )
    unknown = sorted(set(samples) - set(INPUTS))
    if unknown:
        raise ValueError(f"unknown input(s) {unknown}; valid: {', '.join(INPUTS)}")
    return samples


def compute(
    samples_json: str,
    n_bootstrap: float = 1000,
    confidence: float = 0.95,
    seed: float = 0,
    macro_min_samples: float = 25,
) -> dict[str, Any]:
    """The metric's results for the samples in ``samples_json`` (numbers arrive as floats)."""
    try:
        samples = parse_samples(samples_json)
        stats = accumulate(
            samples["scores"],
            samples["split"],
            samples.get("category"),
            samples.get("macro_group"),
            balanced=samples.get("balanced"),
            hard_positives=samples.get("hard_positives"),
        )
        return compute_metrics(
            stats,
            n_bootstrap=int(n_bootstrap),
            confidence=float(confidence),
            seed=int(seed),
            macro_min_samples=int(macro_min_samples),
        )
    except (ValueError, TypeError) as error:
        raise gr.Error(str(error)) from None


def build_demo() -> gr.Blocks:
    """The Space's interface: samples and options in, the results dict out."""
    with gr.Blocks(title="BindSplit metric") as demo:
        gr.Markdown(
            "# BindSplit metric\n\nPaste samples as a JSON object with the metric's inputs "
            '(`"scores"`: per sample an images x captions similarity matrix, `"split"`: per '
            'sample its label; optionally `"category"`, `"macro_group"`, `"balanced"`, '
            '`"hard_positives"`: per sample its number of hard positives, the caption columns '
            "after the positives)."
        )
        samples = gr.Code(value=json.dumps(EXAMPLE, indent=1), language="json", label="samples")
        with gr.Row():
            n_bootstrap = gr.Number(value=1000, precision=0, label="n_bootstrap")
            confidence = gr.Number(value=0.95, label="confidence")
            seed = gr.Number(value=0, precision=0, label="seed")
            macro_min_samples = gr.Number(value=25, precision=0, label="macro_min_samples")
        button = gr.Button("Compute", variant="primary")
        results = gr.JSON(label="results")
        button.click(
            compute,
            inputs=[samples, n_bootstrap, confidence, seed, macro_min_samples],
            outputs=results,
            api_name="compute",
        )
        with gr.Accordion("Metric card", open=False):
            gr.Markdown(_card())
    return demo


if __name__ == "__main__":
    build_demo().launch()
