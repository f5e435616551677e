"""Downloads into the cache: a file already in place is the cache (checked against its MD5), a
download is kept only when complete and intact, and a failure says where to put the file."""

from __future__ import annotations

import hashlib
import http.server
import threading

import pytest

from bindsplit_datasets.downloads import download, file_digest
from bindsplit_datasets.errors import BindsplitError, ChecksumError

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


# ------------------------------------------------------------------ over HTTP, from a local server
class _Server:
    """A local HTTP server of ``BIG`` that honours ``Range`` and misbehaves on request:
    ``fail_first`` answers the first ``n`` requests with 503, ``cut_first`` sends only the first
    half of the body (with the full ``Content-Length``) on the first ``n`` requests."""

    def __init__(self, *, fail_first: int = 0, cut_first: int = 0, status: int | None = None):
        self.fail_first, self.cut_first, self.status = fail_first, cut_first, status
        self.ranges: list[str | None] = []
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep the test output clean
                pass

            def do_GET(self):
                server.ranges.append(self.headers.get("Range"))
                if server.status is not None:
                    self.send_error(server.status)
                    return
                if server.fail_first > 0:
                    server.fail_first -= 1
                    self.send_error(503)
                    return
                start = 0
                if self.headers.get("Range"):
                    start = int(self.headers["Range"].removeprefix("bytes=").rstrip("-"))
                body = BIG[start:]
                self.send_response(206 if start else 200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if server.cut_first > 0:
                    server.cut_first -= 1
                    self.wfile.write(body[: len(body) // 2])
                    self.wfile.flush()
                    self.close_connection = True
                    return
                self.wfile.write(body)

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/archive.zip"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> _Server:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


#: Served over HTTP: 1 MiB, so that a response cut in half has delivered whole network reads.
BIG = bytes(range(256)) * 4096
MD5 = hashlib.md5(BIG, usedforsecurity=False).hexdigest()


def test_a_server_error_is_retried(tmp_path):
    dest = tmp_path / "cache" / "archive.zip"
    with _Server(fail_first=2) as server:
        assert download(server.url, dest, md5=MD5, progress=False, backoff=0) == dest
    assert dest.read_bytes() == BIG
    assert server.ranges == [None, None, None]  # two 503s, then the file
    assert sorted(p.name for p in dest.parent.iterdir()) == ["archive.zip"]


def test_a_response_cut_short_is_resumed_where_it_stopped(tmp_path):
    dest = tmp_path / "cache" / "archive.zip"
    with _Server(cut_first=1) as server:
        assert download(server.url, dest, md5=MD5, progress=False, backoff=0) == dest
    assert dest.read_bytes() == BIG
    assert server.ranges == [None, f"bytes={len(BIG) // 2}-"]


def test_a_part_left_by_an_interrupted_run_is_resumed(tmp_path):
    dest = tmp_path / "cache" / "archive.zip"
    with _Server(cut_first=10) as server:
        with pytest.raises(
            BindsplitError,
            match=r"\(the response was cut short, 3 attempts\).*917,504 bytes received are kept",
        ):
            download(server.url, dest, progress=False, retries=2, backoff=0)
        part = dest.parent / ".archive.zip.part"
        kept = part.stat().st_size
        assert 0 < kept < len(BIG) and BIG.startswith(part.read_bytes())
        server.cut_first = 0  # the next run: the server behaves
        assert download(server.url, dest, md5=MD5, progress=False, backoff=0) == dest
    assert dest.read_bytes() == BIG and server.ranges[-1] == f"bytes={kept}-"
    assert sorted(p.name for p in dest.parent.iterdir()) == ["archive.zip"]


def test_a_missing_file_is_not_retried(tmp_path):
    dest = tmp_path / "cache" / "archive.zip"
    with _Server(status=404) as server:
        with pytest.raises(BindsplitError, match=r"HTTP 404 .*place it at .*archive\.zip"):
            download(server.url, dest, progress=False, backoff=0)
    assert server.ranges == [None] and list(dest.parent.iterdir()) == []


def test_a_corrupt_download_is_not_kept_after_retries(tmp_path):
    dest = tmp_path / "cache" / "archive.zip"
    with _Server() as server:
        with pytest.raises(ChecksumError, match="expected 0000"):
            download(server.url, dest, md5="0" * 32, progress=False, backoff=0)
    assert list(dest.parent.iterdir()) == []
