"""Downloads into the cache: a file already in place is the cache (checked against its MD5), a
download is kept only when complete and intact, and a failure says where to put the file."""

from __future__ import annotations

import hashlib

import pytest

from bindsplit_datasets.downloads import ChecksumError, download, file_digest
from bindsplit_datasets.errors import BindsplitError

PAYLOAD = b"caption archive\n" * 1000


@pytest.fixture
def source(tmp_path):
    path = tmp_path / "remote" / "archive.zip"
    path.parent.mkdir()
    path.write_bytes(PAYLOAD)
    return path


def test_a_download_is_kept_and_then_served_from_the_cache(source, tmp_path):
    dest = tmp_path / "cache" / "archive.zip"
    md5 = hashlib.md5(PAYLOAD, usedforsecurity=False).hexdigest()
    assert download(source.as_uri(), dest, md5=md5, progress=False) == dest
    assert dest.read_bytes() == PAYLOAD
    assert file_digest(dest) == hashlib.sha256(PAYLOAD).hexdigest()
    source.unlink()  # a second call reads nothing from the URL
    assert download(source.as_uri(), dest, md5=md5, progress=False) == dest


def test_a_wrong_download_leaves_nothing_and_a_wrong_cached_file_is_named(source, tmp_path):
    dest = tmp_path / "cache" / "archive.zip"
    with pytest.raises(ChecksumError, match=f"expected {'0' * 32}"):
        download(source.as_uri(), dest, md5="0" * 32, progress=False)
    assert list(dest.parent.iterdir()) == []
    dest.write_bytes(b"placed by hand, damaged")
    with pytest.raises(ChecksumError, match=rf"{dest} has MD5 .*delete it to download it afresh"):
        download(source.as_uri(), dest, md5="0" * 32, progress=False)
    assert dest.read_bytes() == b"placed by hand, damaged"  # never deleted: the user decides


def test_a_failed_download_says_where_to_put_the_file(tmp_path):
    dest = tmp_path / "cache" / "gone.zip"
    with pytest.raises(BindsplitError, match=rf"could not download .*gone.zip.*place it at {dest}"):
        download((tmp_path / "gone.zip").as_uri(), dest, progress=False)
    assert list(dest.parent.iterdir()) == []
