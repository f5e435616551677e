"""Hugging Face Space entry point: the evaluate widget of the BindSplit metric in this folder."""

from pathlib import Path

import evaluate
from evaluate.utils import launch_gradio_widget

# The script by its file name: a Space's folder is not named after the metric.
module = evaluate.load(str(Path(__file__).resolve().with_name("bindsplit.py")))
launch_gradio_widget(module)
