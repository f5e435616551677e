"""Outputs appear only when complete: an error leaves the previous content and no temporaries."""

from __future__ import annotations

from pathlib import Path

import pytest

from bindsplit_datasets.atomic import atomic_directory, atomic_file, write_text


def test_atomic_file_replaces_only_on_success(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "result.json"
    write_text(target, "old")
    with pytest.raises(RuntimeError), atomic_file(target) as temporary:
        temporary.write_text("half", encoding="utf-8")
        raise RuntimeError("interrupted")
    assert target.read_text(encoding="utf-8") == "old"
    with atomic_file(target) as temporary:
        assert temporary.parent == target.parent and temporary != target
        temporary.write_text("new", encoding="utf-8")
        assert target.read_text(encoding="utf-8") == "old"
    assert target.read_text(encoding="utf-8") == "new"
    assert sorted(p.name for p in target.parent.iterdir()) == ["result.json"]


def test_atomic_directory_replaces_only_on_success(tmp_path: Path) -> None:
    out = tmp_path / "build"
    with atomic_directory(out) as folder:
        (folder / "a.txt").write_text("first", encoding="utf-8")
        assert not out.exists()
    assert (out / "a.txt").read_text(encoding="utf-8") == "first"

    with pytest.raises(FileExistsError, match="already exists"), atomic_directory(out):
        pass
    with pytest.raises(KeyError), atomic_directory(out, overwrite=True) as folder:
        (folder / "b.txt").write_text("partial", encoding="utf-8")
        raise KeyError("interrupted")
    assert [p.name for p in out.iterdir()] == ["a.txt"]

    with atomic_directory(out, overwrite=True) as folder:
        (folder / "b.txt").write_text("second", encoding="utf-8")
    assert [p.name for p in out.iterdir()] == ["b.txt"]
    assert [p.name for p in tmp_path.iterdir()] == ["build"]
