"""One place per cross-cutting rule: every error class in ``errors.py``, one check of optional
extras (``errors.require``), one rule for Hub ids (``names.is_hub_id``)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest
from reference_corpus import CAPTIONS, write_shards

import bindsplit_datasets
from bindsplit_datasets import cli, errors
from bindsplit_datasets.builds.manifest import local_build
from bindsplit_datasets.names import is_hub_id
from bindsplit_datasets.reference import resolve

PACKAGE = Path(bindsplit_datasets.__file__).parent

# text -> (owner/name required: manifest, reference; bare name allowed: models)
HUB_IDS: dict[str, tuple[bool, bool]] = {
    "bindsplit/aro": (True, True),
    "openai/clip-vit-base-patch32": (True, True),
    "my_lab/data.v2": (True, True),
    "Org-1/name_2": (True, True),
    "gpt2": (False, True),
    "bert-base-uncased": (False, True),
    "a/b/c": (False, False),
    "/abs/name": (False, False),
    "org/": (False, False),
    "./builds/aro": (False, False),
    "../aro": (False, False),
    "_org/name": (False, False),
    "-org/name": (False, False),
    "my lab/aro": (False, False),
    "org/na me": (False, False),
    "org/name\n": (False, False),
    "": (False, False),
}


@pytest.mark.parametrize(("text", "expected"), HUB_IDS.items())
def test_is_hub_id(text: str, expected: tuple[bool, bool]) -> None:
    assert (is_hub_id(text), is_hub_id(text, require_org=False)) == expected


@pytest.mark.parametrize(("text", "expected"), [item for item in HUB_IDS.items() if item[0]])
def test_every_caller_recognises_hub_ids_alike(
    text: str, expected: tuple[bool, bool], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A build (``manifest.local_build``), a reference (``resolve.open_reference``) and a model
    (``models.hf.check_source``) each take a Hub id only where ``is_hub_id`` says so (the
    empty text is left out: it names the current folder)."""
    monkeypatch.chdir(tmp_path)  # none of the texts is an existing path
    with_org, bare = expected

    if with_org:
        assert local_build(text) is None
    else:
        with pytest.raises(errors.BindsplitFileNotFoundError, match="neither a folder nor a Hub"):
            local_build(text)

    monkeypatch.setattr(resolve, "HubDataset", lambda dataset_id, column: ("hub", dataset_id))
    if with_org:
        assert resolve.open_reference(text) == ("hub", text)
    else:
        with pytest.raises(errors.BindsplitValueError, match="unknown reference"):
            resolve.open_reference(text)

    hf = pytest.importorskip("bindsplit_datasets.models.hf")
    if bare:
        assert hf.check_source(text) is None
    else:
        with pytest.raises(errors.ModelNotFoundError, match="neither a local folder nor a Hub"):
            hf.check_source(text)


def test_every_error_class_is_defined_in_errors_py() -> None:
    """Public exception classes live in ``errors.py`` only (private control-flow ones such as
    ``downloads._Retry`` may stay where they are used)."""
    defined = set(errors.__all__)
    elsewhere = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "errors.py" and path.parent == PACKAGE:
            continue
        if path.is_relative_to(PACKAGE / "_metric") or path.is_relative_to(PACKAGE / "_spaces"):
            continue  # self-contained folders published on their own
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ClassDef) or node.name.startswith("_"):
                continue
            bases = [ast.unparse(base) for base in node.bases]
            if any(base.endswith(("Error", "Exception")) for base in bases):
                elsewhere.append(f"{path.relative_to(PACKAGE)}: {node.name}")
    assert elsewhere == []
    assert all(
        issubclass(getattr(errors, name), errors.BindsplitError)
        for name in defined
        if name[0].isupper()
    )


def test_require_names_the_purpose_the_extra_and_the_alternative(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # not installed
    with pytest.raises(errors.MissingExtraError) as caught:
        errors.require("distributed", "ray", purpose="the Ray engine", instead="use the local one")
    assert str(caught.value) == (
        "the Ray engine needs ray, which cannot be imported (import of ray halted; None in "
        "sys.modules); it comes with the 'distributed' extra: pip install "
        "'bindsplit-datasets[distributed] @ git+https://github.com/bindsplit/bindsplit', or use "
        "the local one."
    )
    assert isinstance(caught.value, ImportError)


def test_reference_build_on_ray_without_ray_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # not installed
    shards = write_shards(tmp_path / "shards", CAPTIONS)
    out = tmp_path / "index.parquet"
    argv = ["reference", "build", str(shards), "--out", str(out), "--engine", "ray"]
    assert cli.main(argv) == cli.EXIT_USER_ERROR
    err = capsys.readouterr().err
    assert "Traceback" not in err
    last = err.splitlines()[-1]  # after the progress bar
    assert last.startswith("bindsplit reference: error: the Ray engine needs ray, which cannot")
    assert last.endswith(
        "pip install 'bindsplit-datasets[distributed] @ git+https://github.com/bindsplit/bindsplit',"
        " or use the local engine."
    )
    assert not out.exists()
