"""Planning the upload of BindSplit's Spaces (gradio SDK): the metric and the leaderboard.

``evaluate.load("ORG/NAME")`` downloads ``NAME.py`` from the Space and, like a local load, the
sibling modules it imports relatively (``from .bindsplit_core import ...``); the Space runs
``app.py``. :func:`plan_metric` checks that the folder has all of that and a card with the front
matter evaluate Spaces carry, and plans the canonical Space ``bindsplit/bindsplit`` (or another
namespace, or any ``repo_id`` named after the script).

:func:`plan_space` plans one of the Spaces shipped in ``spaces/`` (:data:`SPACES`: the
leaderboard, ``bindsplit/leaderboard``), with the results it reads (``results.txt``: a results
dataset id, by default ``bindsplit/bindsplit-results``).
"""

from __future__ import annotations

import ast
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

import yaml

from .._version import __version__
from ..errors import BindsplitValueError, SchemaError
from ..metric import METRIC_DIR
from ..names import leaderboard_space_id, metric_space_id, results_dataset_id
from .plan import (
    CARD,
    CommitOptions,
    PublishPlan,
    generated_file,
    left_out,
    local_file,
    publish_record,
    require_folder,
    validate_repo_name,
)
from .wheel import project_wheel, space_requirements

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["METRIC_SPACE_FILES", "SPACES", "SPACES_DIR", "plan_metric", "plan_space"]

#: Files an evaluate Space needs besides the metric script ``<name>.py`` and its siblings.
METRIC_SPACE_FILES: tuple[str, ...] = ("README.md", "app.py", "requirements.txt")
METRIC_FRONT_MATTER: dict[str, str] = {"sdk": "gradio", "app_file": "app.py"}
METRIC_TAGS: tuple[str, ...] = ("evaluate", "metric")

SPACES_DIR: Path = Path(__file__).resolve().parents[1] / "_spaces"
"""The Spaces shipped in the package (the repository's ``spaces/``)."""
#: Space name -> (default repository id for a namespace, tags its card must carry).
SPACES: dict[str, tuple[Any, tuple[str, ...]]] = {
    "leaderboard": (leaderboard_space_id, ("leaderboard", "bindsplit")),
}
#: Files every shipped Space has: its card, its app, its requirements, the results it reads.
SPACE_FILES: tuple[str, ...] = ("README.md", "app.py", "requirements.txt", "results.txt")
#: The file naming the results a shipped Space reads.
RESULTS_FILE = "results.txt"
#: The Space's requirements, rewritten to install BindSplit from the bundled wheel.
REQUIREMENTS_FILE = "requirements.txt"


def _check_front_matter(readme: Path, tags: tuple[str, ...] = METRIC_TAGS) -> dict[str, Any]:
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
    found = metadata.get("tags") or []
    missing = [tag for tag in tags if tag not in found]
    if missing:
        raise SchemaError(
            f"{readme} front matter tags must include {', '.join(tags)} "
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


def plan_space(
    name: str,
    repo_id: str | None = None,
    *,
    folder: str | Path | None = None,
    org: str | None = None,
    results: str | None = None,
    wheel: str | Path | None = None,
    commit_message: str | None = None,
    **options: Unpack[CommitOptions],
) -> PublishPlan:
    """Plan publishing a shipped Space (:data:`SPACES`, e.g. ``"leaderboard"``) as a gradio
    Space: ``repo_id``, else its canonical id (``bindsplit/leaderboard``) with ``org`` as
    namespace if given.

    Uploaded: README.md (front matter ``sdk: gradio``, ``app_file: app.py``, the Space's tags),
    app.py, requirements.txt, ``results.txt`` naming the results dataset it reads (``results``,
    else ``bindsplit/bindsplit-results`` in namespace ``org``, else the folder's own file),
    BindSplit's wheel (``wheels/*.whl``: ``wheel``, else built from the source checkout; see
    :func:`~.wheel.project_wheel`), which requirements.txt names by its relative path, since
    the package is not on the package index, and the publish record. ``folder`` replaces the
    shipped folder (default ``spaces/<name>``).
    ``options``: :class:`~.plan.CommitOptions`.
    """
    if name not in SPACES:
        raise BindsplitValueError(f"unknown Space {name!r}; BindSplit ships {', '.join(SPACES)}")
    default_id, tags = SPACES[name]
    repo_id = validate_repo_name(repo_id or default_id(org))
    folder = Path(folder) if folder is not None else SPACES_DIR / name
    require_folder(folder)
    missing = [file for file in SPACE_FILES if not (folder / file).is_file()]
    if missing:
        raise SchemaError(f"{folder} is missing {', '.join(missing)}, which the Space needs")
    metadata = _check_front_matter(folder / CARD, tags)
    source = results or (results_dataset_id(org) if org else None)
    built = project_wheel(wheel)
    wheel_name = PurePosixPath(built.path_in_repo).name
    requirements = space_requirements(
        (folder / REQUIREMENTS_FILE).read_text(encoding="utf-8"), wheel_name
    )
    files = [
        generated_file(REQUIREMENTS_FILE, requirements)
        if file == REQUIREMENTS_FILE
        else local_file(folder, folder / file)
        for file in SPACE_FILES
        if file != RESULTS_FILE
    ]
    if source is None:
        files.append(local_file(folder, folder / RESULTS_FILE))
        source = (folder / RESULTS_FILE).read_text(encoding="utf-8").strip()
    else:
        files.append(generated_file(RESULTS_FILE, source + "\n"))
    files.append(built)
    files.append(publish_record(files[0].read()))
    summary = (
        (
            "space",
            f"{name}: {metadata.get('title')!r}, sdk {metadata['sdk']} "
            f"{metadata.get('sdk_version', '(no sdk_version)')}",
        ),
        ("results", f"{source} ({RESULTS_FILE}; BINDSPLIT_RESULTS overrides it on the Space)"),
        ("package", f"{built.path_in_repo}, installed by {REQUIREMENTS_FILE}"),
    )
    return PublishPlan(
        repo_id=repo_id,
        repo_type="space",
        files=tuple(files),
        summary=summary,
        commit_message=commit_message
        or f"Publish the BindSplit {name} Space (bindsplit {__version__})",
        **options,
        space_sdk=METRIC_FRONT_MATTER["sdk"],
        not_uploaded=left_out(folder, files),
    )
