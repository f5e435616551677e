"""Planning the upload of the metric folder as an evaluate Space (gradio SDK).

``evaluate.load("ORG/NAME")`` downloads ``NAME.py`` from the Space and, like a local load, the
sibling modules it imports relatively (``from .bindsplit_core import ...``); the Space runs
``app.py``. :func:`plan_metric` checks that the folder has all of that and a card with the front
matter evaluate Spaces carry, and plans the canonical Space ``bindsplit/bindsplit`` (or another
namespace, or any ``repo_id`` named after the script).
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from .. import __version__
from ..errors import SchemaError
from ..metric import METRIC_DIR
from ..names import metric_space_id
from .plan import (
    CARD,
    CommitOptions,
    PublishPlan,
    left_out,
    local_file,
    publish_record,
    require_folder,
    validate_repo_name,
)

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["METRIC_SPACE_FILES", "plan_metric"]

#: Files an evaluate Space needs besides the metric script ``<name>.py`` and its siblings.
METRIC_SPACE_FILES: tuple[str, ...] = ("README.md", "app.py", "requirements.txt")
METRIC_FRONT_MATTER: dict[str, str] = {"sdk": "gradio", "app_file": "app.py"}
METRIC_TAGS: tuple[str, ...] = ("evaluate", "metric")


def _check_front_matter(readme: Path) -> dict[str, Any]:
    from huggingface_hub import SpaceCard

    text = readme.read_text(encoding="utf-8")
    if not text.startswith("---"):
        raise SchemaError(f"{readme} has no YAML front matter; an evaluate Space needs one")
    try:
        metadata = SpaceCard(text).data.to_dict()
    except (ValueError, yaml.YAMLError) as error:
        raise SchemaError(f"{readme} has invalid front matter: {error}") from None
    for key, expected in METRIC_FRONT_MATTER.items():
        if metadata.get(key) != expected:
            raise SchemaError(
                f"{readme} front matter must set {key}: {expected} (found {metadata.get(key)!r})"
            )
    tags = metadata.get("tags") or []
    missing = [tag for tag in METRIC_TAGS if tag not in tags]
    if missing:
        raise SchemaError(
            f"{readme} front matter tags must include {', '.join(METRIC_TAGS)} "
            f"(missing {', '.join(missing)})"
        )
    return metadata


def _relative_imports(script: Path) -> list[str]:
    """Modules ``script`` imports relatively (``from .x import y``): evaluate copies ``x.py``."""
    try:
        tree = ast.parse(script.read_text(encoding="utf-8"), filename=str(script))
    except SyntaxError as error:
        raise SchemaError(f"{script} is not valid Python: {error}") from None
    return sorted(
        {
            node.module.split(".")[0]
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module
        }
    )


def plan_metric(
    folder: str | Path = METRIC_DIR,
    repo_id: str | None = None,
    *,
    org: str | None = None,
    commit_message: str | None = None,
    **options: Unpack[CommitOptions],
) -> PublishPlan:
    """Plan publishing the metric folder (default: the one shipped in the package) as an evaluate
    Space: ``repo_id``, else ``bindsplit/bindsplit`` with ``org`` as namespace if given.

    Uploaded: README.md (front matter ``sdk: gradio``, ``app_file: app.py``, ``tags`` with
    ``evaluate`` and ``metric``), the metric script named after the repository, every other
    Python file of the folder (the modules the script imports relatively, ``app.py``),
    requirements.txt and the publish record. ``options``: :class:`~.plan.CommitOptions`.
    """
    repo_id = validate_repo_name(repo_id or metric_space_id(org))
    folder = Path(folder)
    require_folder(folder)
    script = f"{repo_id.split('/')[1]}.py"
    python_files = sorted(path.name for path in folder.glob("*.py"))
    if script not in python_files:
        found = [name for name in python_files if name != "app.py"]
        raise SchemaError(
            f"evaluate.load({repo_id!r}) loads {script} from the Space, but {folder} has no "
            f"{script}; name the repository after the metric script "
            f"({', '.join(found) or 'none found'})"
        )
    missing = [required for required in METRIC_SPACE_FILES if not (folder / required).is_file()]
    missing += [
        f"{module}.py (imported by {script})"
        for module in _relative_imports(folder / script)
        if f"{module}.py" not in python_files
    ]
    if missing:
        raise SchemaError(
            f"{folder} is missing {', '.join(missing)}, which an evaluate Space needs"
        )
    metadata = _check_front_matter(folder / CARD)
    ordered = [CARD, script, *(name for name in python_files if name != script), "requirements.txt"]
    files = [local_file(folder, folder / name) for name in ordered]
    files.append(publish_record(files[0].read()))
    summary = (
        ("metric", f"{script}: evaluate.load({repo_id!r})"),
        (
            "card",
            f"title {metadata.get('title')!r}, sdk {metadata['sdk']} "
            f"{metadata.get('sdk_version', '(no sdk_version)')}, app_file {metadata['app_file']}, "
            f"tags {metadata['tags']}",
        ),
    )
    return PublishPlan(
        repo_id=repo_id,
        repo_type="space",
        files=tuple(files),
        summary=summary,
        commit_message=commit_message
        or f"Publish the BindSplit evaluate metric (bindsplit {__version__})",
        **options,
        space_sdk=METRIC_FRONT_MATTER["sdk"],
        not_uploaded=left_out(folder, files),
    )
