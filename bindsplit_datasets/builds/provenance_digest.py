"""A build manifest's provenance digest: what the build says it was made from, checked.

The rows' fingerprint (:func:`~bindsplit_datasets.builds.manifest.rows_fingerprint`) covers the
rows only, and stays as it was so that existing builds keep theirs. The benchmark a build names,
its source and reference, the labelling options and the composition are covered by the
manifest's ``provenance`` entry, the digest of every other entry: the builder records it,
verification recomputes it, so a manifest edited to name another benchmark (a synthetic build
claiming ``aro_vga``) is refused as edited rows are.

Like the fingerprint it is a checksum, not a signature: it catches an edited manifest, not a
forger who recomputes it with :func:`provenance_digest`.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Mapping
from typing import Any

from ..errors import BuildVerificationError
from ..names import MANIFEST_NAME

__all__ = ["PROVENANCE", "check_provenance", "provenance_digest", "with_provenance"]

#: The manifest entry holding its provenance digest.
PROVENANCE = "provenance"

logger = logging.getLogger(__name__)


def provenance_digest(manifest: Mapping[str, Any]) -> str:
    """``"sha256:<hex>"`` of every entry of ``manifest`` but the digest itself, as canonical JSON
    (sorted keys, compact), taken as the file gives them back (tuples as lists, keys as strings).

    >>> provenance_digest({"benchmark": "bivlc"}) == provenance_digest({"benchmark": "bivlc",
    ...     "provenance": "sha256:..."})
    True
    """
    entries = json.loads(json.dumps({k: v for k, v in manifest.items() if k != PROVENANCE}))
    text = json.dumps(entries, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def with_provenance(manifest: Mapping[str, Any]) -> dict[str, Any]:
    """``manifest`` with its provenance digest, the last entry (what the builder writes)."""
    return {**manifest, PROVENANCE: provenance_digest(manifest)}


def check_provenance(manifest: Mapping[str, Any], where: str, *, fix: str, rebuild: str) -> None:
    """Raise :class:`BuildVerificationError` (ending with ``fix``) unless the manifest's
    ``provenance`` digest is that of its entries. A manifest written before builds recorded one
    is read as it is, with a warning that its provenance is unchecked (ending with
    ``rebuild``)."""
    recorded = manifest.get(PROVENANCE)
    if recorded is None:
        logger.warning(
            "the %s of %s records no provenance digest (an older build): its benchmark, source "
            "and reference are not checked; %s to have them checked",
            MANIFEST_NAME,
            where,
            rebuild,
        )
        return
    actual = provenance_digest(manifest)
    if recorded != actual:
        raise BuildVerificationError(
            f"the {MANIFEST_NAME} of {where} was changed after the build: its provenance digest "
            f"is {actual[:23]}, it records {str(recorded)[:23]} (its benchmark "
            f"{manifest.get('benchmark')!r}, source or reference are not what was built); {fix}"
        )
