"""The BindSplit evaluate metric as shipped in the package (protocol section 5), and its
installation as ``evaluate.load("bindsplit")``.

The metric folder ``metrics/bindsplit`` is shipped as package data
(``bindsplit_datasets/_metric/bindsplit/``), so that :func:`load_metric` works offline from any
directory after ``pip install``. Its functional core is :mod:`bindsplit_datasets.metric_core`.

``evaluate.load("bindsplit")`` resolves a bare name to the Hub's ``evaluate-metric/bindsplit``
(its script, ``HubEvaluationModuleFactory``) and, when that fails (offline, or no such
repository), to the newest module cached as
``$HF_MODULES_CACHE/evaluate_modules/metrics/evaluate-metric--bindsplit/<64-hex hash>/``
(evaluate's ``CachedEvaluationModuleFactory``, which then warns that the module "couldn't be
found locally ..., or remotely on the Hugging Face Hub": it reads as a failure).
:func:`install_metric` (``bindsplit install-metric``, run by ``make install`` and by
:func:`load_metric`) writes the shipped metric into both places evaluate looks:

* the modules cache: under a hash of its module files, atomically, touching no other entry; a
  second call with the same metric does nothing, and a changed metric gets a new entry, the
  newest;
* evaluate's downloads cache (``$HF_EVALUATE_CACHE/downloads``): the module files under the
  names evaluate gives the files of ``evaluate-metric/bindsplit`` at its own scripts revision,
  what it would hold had it downloaded them. evaluate takes a cached download when the Hub does
  not answer or has no such file, so ``evaluate.load("bindsplit")`` resolves through its first
  route, silently. Should evaluate's names change (another release), the modules cache still
  serves, with evaluate's warning.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import secrets
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from .errors import BindsplitFileNotFoundError, MetricInstallError

if TYPE_CHECKING:  # pragma: no cover
    import evaluate

__all__ = [
    "CACHED_NAME",
    "HUB_NAME",
    "METRIC_DIR",
    "install_metric",
    "load_metric",
    "metric_hash",
    "uninstall_metric",
    "verify_installed",
]

logger = logging.getLogger(__name__)

METRIC_DIR: Final[Path] = Path(__file__).parent / "_metric" / "bindsplit"
"""The metric folder shipped in the package (the repository's ``metrics/bindsplit``)."""
#: The metric script and the sibling modules it imports: what evaluate copies and imports.
MODULE_FILES: Final[tuple[str, ...]] = (
    "bindsplit.py",
    "bindsplit_bootstrap.py",
    "bindsplit_core.py",
    "bindsplit_halftruth.py",
    "bindsplit_intervals.py",
    "bindsplit_outcomes.py",
)
#: The entry ``evaluate.load("bindsplit")`` looks for in its modules cache.
CACHED_NAME: Final[str] = "evaluate-metric--bindsplit"
#: The Hub module ``evaluate.load("bindsplit")`` looks for first (a canonical metric's name).
HUB_NAME: Final[str] = "evaluate-metric/bindsplit"
_MODULES = "evaluate_modules"  # evaluate.config.MODULE_NAME_FOR_DYNAMIC_MODULES
_SCRIPT = MODULE_FILES[0]


def _check_folder(folder: Path) -> None:
    missing = [name for name in MODULE_FILES if not (folder / name).is_file()]
    if missing:
        raise BindsplitFileNotFoundError(
            f"the BindSplit metric is missing from the installed package ({', '.join(missing)} "
            f"not in {folder}); reinstall bindsplit-datasets "
            "(`pip install --force-reinstall` the wheel or the repository it came from)"
        )


def metric_hash(folder: str | os.PathLike[str] = METRIC_DIR) -> str:
    """The 64-hex SHA-256 of the metric's module files (names and bytes): the name of its entry
    in evaluate's modules cache, new whenever the metric changes."""
    folder = Path(folder)
    _check_folder(folder)
    sha = hashlib.sha256()
    for name in MODULE_FILES:
        sha.update(name.encode("utf-8") + b"\0" + (folder / name).read_bytes() + b"\0")
    return sha.hexdigest()


def _modules_cache() -> Path:
    """evaluate's modules cache, read when called (``HF_MODULES_CACHE`` or ``$HF_HOME/modules``)."""
    from evaluate import config

    return Path(config.HF_MODULES_CACHE)


def _ensure_package(folder: Path) -> None:
    """``folder`` exists with an ``__init__.py`` (created only if missing, as evaluate does)."""
    folder.mkdir(parents=True, exist_ok=True)
    init = folder / "__init__.py"
    if not init.exists():
        init.touch()


def _same_files(entry: Path, folder: Path) -> bool:
    return all(
        (entry / name).is_file() and (entry / name).read_bytes() == (folder / name).read_bytes()
        for name in MODULE_FILES
    )


def _make_newest(entry: Path) -> None:
    """Give ``entry``'s script the newest modification time among the cached versions, so that
    evaluate picks it (it takes the most recently modified one)."""
    script = entry / _SCRIPT
    others = [
        sibling / _SCRIPT
        for sibling in entry.parent.iterdir()
        if len(sibling.name) == 64 and sibling != entry and (sibling / _SCRIPT).is_file()
    ]
    newest = max((other.stat().st_mtime for other in others), default=None)
    if newest is not None and script.stat().st_mtime <= newest:
        os.utime(script, (newest + 1, newest + 1))


def install_metric(
    modules_cache: str | os.PathLike[str] | None = None,
    *,
    downloads_cache: str | os.PathLike[str] | None = None,
) -> Path:
    """Install the shipped metric where ``evaluate.load("bindsplit")`` finds it offline, without
    a warning; return its folder ``<cache>/evaluate_modules/metrics/evaluate-metric--bindsplit/
    <hash>``.

    ``modules_cache``: evaluate's modules cache (default: the one evaluate uses,
    ``$HF_MODULES_CACHE`` or ``$HF_HOME/modules``). The entry is written to a temporary sibling
    and renamed into place; an entry that already holds these files is kept (made the newest if
    an older install is newer); nothing else in the cache is changed but the package markers
    (``__init__.py``) evaluate itself creates when missing. ``downloads_cache``: evaluate's
    downloads cache (default: evaluate's, ``$HF_EVALUATE_CACHE/downloads``), where the module
    files go under the names of ``evaluate-metric/bindsplit``'s files (module docstring), each
    written atomically; nothing else there is touched.

    An odd modules cache (a file where a folder goes, a path that cannot be written) raises
    :class:`~bindsplit_datasets.errors.MetricInstallError` (one line); :func:`verify_installed`
    checks afterwards that ``evaluate.load("bindsplit")`` loads the entry.
    """
    cache = Path(modules_cache) if modules_cache is not None else _modules_cache()
    try:
        entry = _install(cache)
        _install_downloads(downloads_cache)
        return entry
    except OSError as error:
        reason = f"{error.strerror or error}: {error.filename}" if error.filename else str(error)
        raise MetricInstallError(
            f"cannot install the bindsplit metric in evaluate's modules cache {cache} ({reason}); "
            "point HF_MODULES_CACHE (or --modules-cache) at a folder you can write, or move "
            "away what is in the way"
        ) from None


#: A tiny input and the I2T accuracy it must give: what :func:`verify_installed` computes.
_CHECK = "import evaluate; m = evaluate.load('bindsplit'); print(m.compute(scores=[[[0.9, 0.1], [0.2, 0.8]]], split=['seen'])['full/i2t'])"  # noqa: E501


def verify_installed(modules_cache: str | os.PathLike[str] | None = None) -> None:
    """Check that ``evaluate.load("bindsplit")`` loads the installed metric and computes with it,
    as a user's fresh process would (offline, ``modules_cache`` as evaluate's modules cache, in
    an empty working folder so that nothing there shadows the name); raise
    :class:`~bindsplit_datasets.errors.MetricInstallError` with evaluate's reason otherwise."""
    import subprocess
    import sys
    import tempfile

    cache = Path(modules_cache) if modules_cache is not None else _modules_cache()
    # the check runs in another folder: a relative cache is named from here
    env = {**os.environ, "HF_MODULES_CACHE": str(cache.absolute()), "HF_HUB_OFFLINE": "1"}
    env["HF_EVALUATE_OFFLINE"] = "1"
    with tempfile.TemporaryDirectory() as folder:
        run = subprocess.run(
            [sys.executable, "-c", _CHECK], cwd=folder, env=env, capture_output=True, text=True
        )
    if run.returncode != 0 or run.stdout.strip().splitlines()[-1:] != ["1.0"]:
        lines = [line for line in run.stderr.strip().splitlines() if line.strip()]
        reason = lines[-1] if lines else f"it printed {run.stdout.strip()!r}"
        raise MetricInstallError(
            f"the metric was installed in {cache}, but evaluate.load('bindsplit') does not load "
            f"it ({reason}); remove {cache / _MODULES / 'metrics' / CACHED_NAME} and run "
            "`bindsplit install-metric` again, or point HF_MODULES_CACHE at a clean folder"
        )


def _install(cache: Path) -> Path:
    """The installation itself (:func:`install_metric`) into the modules cache ``cache``."""
    digest = metric_hash(METRIC_DIR)
    parent = cache / _MODULES / "metrics" / CACHED_NAME
    for folder in (cache, cache / _MODULES, cache / _MODULES / "metrics", parent):
        _ensure_package(folder)
    entry = parent / digest
    if entry.is_dir() and _same_files(entry, METRIC_DIR):
        _make_newest(entry)
        logger.debug("the bindsplit metric is already installed in %s", entry)
        return entry
    temporary = parent / f".{digest}.{os.getpid()}-{secrets.token_hex(4)}.tmp"
    temporary.mkdir()
    try:
        (temporary / "__init__.py").touch()
        for name in MODULE_FILES:
            shutil.copyfile(METRIC_DIR / name, temporary / name)
        meta = {
            "original file path": str(METRIC_DIR / _SCRIPT),
            "local file path": str((entry / _SCRIPT).absolute()),
        }
        (temporary / f"{Path(_SCRIPT).stem}.json").write_text(json.dumps(meta), encoding="utf-8")
        if entry.exists():  # an entry changed by hand: set aside, then replaced
            stale = parent / f".{digest}.{os.getpid()}-{secrets.token_hex(4)}.old"
            entry.rename(stale)
            shutil.rmtree(stale)
        temporary.rename(entry)
    except OSError as error:  # another process may have installed it meanwhile
        if not (entry.is_dir() and _same_files(entry, METRIC_DIR)):
            raise
        logger.debug("another process installed %s first (%s)", entry, error)
    finally:
        if temporary.exists():
            shutil.rmtree(temporary)
    _make_newest(entry)
    logger.info("installed the bindsplit metric in %s", entry)
    return entry


def _hub_files() -> dict[str, str] | None:
    """Module file -> the name evaluate's downloads cache gives that file of
    :data:`HUB_NAME` at the scripts revision evaluate asks for (as
    ``HubEvaluationModuleFactory.get_module`` does); None where this evaluate names its files
    otherwise (its internals moved)."""
    try:
        from evaluate import SCRIPTS_VERSION
        from evaluate.utils.file_utils import hash_url_to_filename, hf_hub_url
    except ImportError:
        return None
    revision = os.getenv("HF_SCRIPTS_VERSION", SCRIPTS_VERSION)
    if re.match(r"\d*\.\d*\.\d*", revision):  # evaluate tags its releases v<version>
        revision = f"v{revision}"
    return {
        name: hash_url_to_filename(hf_hub_url(path=HUB_NAME, name=name, revision=revision))
        for name in MODULE_FILES
    }


def _downloads_cache(downloads_cache: str | os.PathLike[str] | None) -> Path:
    """evaluate's downloads cache: ``downloads_cache``, else the one evaluate uses."""
    if downloads_cache is not None:
        return Path(downloads_cache)
    from evaluate import config

    return Path(config.DOWNLOADED_EVALUATE_PATH)


def _install_downloads(downloads_cache: str | os.PathLike[str] | None) -> None:
    """The module files in evaluate's downloads cache, as files of :data:`HUB_NAME`, each written
    to a temporary sibling and renamed into place (kept when they already hold these bytes)."""
    names = _hub_files()
    if names is None:
        logger.debug("this evaluate names its downloads otherwise; the modules cache serves")
        return
    folder = _downloads_cache(downloads_cache)
    folder.mkdir(parents=True, exist_ok=True)
    for module, name in names.items():
        content = (METRIC_DIR / module).read_bytes()
        target = folder / name
        if target.is_file() and target.read_bytes() == content:
            continue
        temporary = folder / f".{name}.{os.getpid()}-{secrets.token_hex(4)}.tmp"
        try:
            temporary.write_bytes(content)
            temporary.replace(target)
        finally:
            temporary.unlink(missing_ok=True)


def _uninstall_downloads(downloads_cache: str | os.PathLike[str] | None) -> list[Path]:
    """Remove the files :func:`_install_downloads` wrote (those of this evaluate's revision that
    hold one of the shipped module files, byte for byte); returns them."""
    names = _hub_files()
    folder = _downloads_cache(downloads_cache)
    if names is None or not folder.is_dir():
        return []
    removed = []
    for module, name in names.items():
        target = folder / name
        if target.is_file() and target.read_bytes() == (METRIC_DIR / module).read_bytes():
            target.unlink()
            removed.append(target)
    return removed


def _is_our_entry(entry: Path) -> bool:
    """Whether ``entry`` is what :func:`install_metric` writes: a 64-hex folder holding only
    ``__init__.py``, the module files and the record naming the shipped script; or the copy
    evaluate makes of the files :func:`_install_downloads` wrote (its record names one)."""
    names = {"__init__.py", *MODULE_FILES, f"{Path(_SCRIPT).stem}.json"}
    if len(entry.name) != 64 or not entry.is_dir():
        return False
    found = {path.name for path in entry.iterdir() if path.name != "__pycache__"}
    if not found <= names or not all(name in found for name in MODULE_FILES):
        return False
    try:
        meta = json.loads((entry / f"{Path(_SCRIPT).stem}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    original = str(meta.get("original file path", ""))
    return original.endswith(_SCRIPT) or Path(original).name in (_hub_files() or {}).values()


def uninstall_metric(
    modules_cache: str | os.PathLike[str] | None = None,
    *,
    downloads_cache: str | os.PathLike[str] | None = None,
) -> list[Path]:
    """Remove what :func:`install_metric` wrote into evaluate's modules cache: its entries
    ``<cache>/evaluate_modules/metrics/evaluate-metric--bindsplit/<hash>`` (only folders in the
    form it writes) and that folder when nothing else is left in it; and its files in evaluate's
    downloads cache. evaluate's own folders and anything else in the caches stay. Returns the
    removed entries (modules cache entries first)."""
    cache = Path(modules_cache) if modules_cache is not None else _modules_cache()
    parent = cache / _MODULES / "metrics" / CACHED_NAME
    downloads = _uninstall_downloads(downloads_cache)
    if not parent.is_dir():
        return downloads
    removed = []
    for entry in sorted(parent.iterdir()):
        if _is_our_entry(entry):
            shutil.rmtree(entry)
            removed.append(entry)
    left = {path.name for path in parent.iterdir()} - {"__init__.py", "__pycache__"}
    if not left:
        shutil.rmtree(parent)
    logger.info(
        "removed %d bindsplit metric entr%s from %s",
        len(removed),
        "y" if len(removed) == 1 else "ies",
        parent,
    )
    return removed + downloads


def load_metric(config_name: str | None = None, **kwargs: Any) -> evaluate.EvaluationModule:
    """``evaluate.load`` of the shipped metric folder; works offline and from any directory.

    Also installs the metric for ``evaluate.load("bindsplit")`` (:func:`install_metric`; a
    cache that cannot be written is logged and skipped). ``config_name``: "default", or the
    optional inputs the metric takes joined by "+" ("category", "macro_group", "balanced", e.g.
    "category+balanced"); ``kwargs`` go to ``evaluate.load`` (``num_process``, ``process_id``,
    ``experiment_id``, ``cache_dir``, ...).
    """
    import evaluate

    _check_folder(METRIC_DIR)
    try:
        install_metric()
    except OSError as error:
        logger.warning("could not install the metric for evaluate.load('bindsplit'): %s", error)
    return evaluate.load(str(METRIC_DIR), config_name, **kwargs)
