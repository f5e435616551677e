"""The COCO val2017 images, downloaded once and cached, for benchmarks built on them (SugarCrepe).

:func:`coco_val2017_images` returns a folder holding the 5,000 val2017 JPEG files under their
official names (``000000000139.jpg``, ...). The first call downloads the official archive
(``val2017.zip``, 778 MB) with :func:`~bindsplit_datasets.downloads.download`, which checks its
MD5 against the published checksum, extracts the images into ``<cache>/coco2017/val2017`` (a
temporary sibling folder renamed into place when complete) and deletes the archive; later calls
return the folder at once. ``<cache>`` is the user cache folder of every BindSplit download
(``$BINDSPLIT_CACHE`` or ``~/.cache/bindsplit``).
"""

from __future__ import annotations

import logging
import os
import shutil
import zipfile
from pathlib import Path

from ..atomic import atomic_directory
from ..downloads import IO_CHUNK, default_cache_dir, download, url_file_name
from ..errors import SchemaError
from ..progress import progress as progress_bar

__all__ = ["COCO_VAL2017_IMAGES_MD5", "COCO_VAL2017_IMAGES_URL", "coco_val2017_images"]

logger = logging.getLogger(__name__)

#: The official archive of the COCO val2017 images.
COCO_VAL2017_IMAGES_URL = "http://images.cocodataset.org/zips/val2017.zip"
#: Its published MD5 checksum.
COCO_VAL2017_IMAGES_MD5 = "442b8da7639aecaf257c1dceb8ba8c80"
#: Folder of the archive's members (``val2017/<name>.jpg``) and of the cached images.
_MEMBER_FOLDER = "val2017"


def _image_members(archive: zipfile.ZipFile) -> list[zipfile.ZipInfo]:
    """The archive's ``val2017/<name>`` files (nothing outside that folder, no nested paths)."""
    members = []
    for info in archive.infolist():
        folder, _, name = info.filename.partition("/")
        if info.is_dir() or folder != _MEMBER_FOLDER or not name or "/" in name:
            continue
        if name.startswith(".") or "\\" in name:
            continue
        members.append(info)
    return members


def _extract_images(archive_path: Path, folder: Path, *, progress: bool) -> None:
    """Extract the archive's images flat into ``folder`` (written atomically)."""
    try:
        with zipfile.ZipFile(archive_path) as archive, atomic_directory(folder) as tmp:
            members = _image_members(archive)
            if not members:
                raise SchemaError(
                    f"{archive_path} holds no {_MEMBER_FOLDER}/ images; it is not the COCO "
                    "val2017 image archive"
                )
            images = progress_bar(
                members, desc="extracting images", unit="file", disable=not progress
            )
            for info in images:
                name = info.filename.partition("/")[2]
                with archive.open(info) as src, open(tmp / name, "wb") as out:
                    shutil.copyfileobj(src, out, IO_CHUNK)
    except zipfile.BadZipFile as error:
        raise SchemaError(f"{archive_path} is not a zip archive ({error})") from None


def coco_val2017_images(
    cache_dir: str | os.PathLike[str] | None = None,
    *,
    url: str = COCO_VAL2017_IMAGES_URL,
    md5: str | None = COCO_VAL2017_IMAGES_MD5,
    progress: bool = True,
) -> Path:
    """The folder of the COCO val2017 images, downloading and extracting them on first use.

    ``cache_dir`` defaults to BindSplit's cache folder; ``url`` and ``md5`` name another copy of
    the archive (a mirror, or a local ``file://`` URL) and its checksum (``None``: unchecked).

    Raises:
        ~bindsplit_datasets.errors.ChecksumError: the archive does not have ``md5`` (a
            download is not kept).
        SchemaError: the archive holds no ``val2017/`` images.
    """
    root = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    folder = root / "coco2017" / _MEMBER_FOLDER
    if folder.is_dir():
        return folder
    archive = download(
        url, folder.with_name(url_file_name(url, "val2017.zip")), md5=md5, progress=progress
    )
    try:
        _extract_images(archive, folder, progress=progress)
    finally:
        archive.unlink(missing_ok=True)  # the images are what is kept; the archive is 778 MB
    logger.info("COCO val2017 images cached in %s", folder)
    return folder
