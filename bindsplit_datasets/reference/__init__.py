"""The reference index (docs/protocol.md, section 2): what a model has seen, as binding counts
of a caption corpus.

One module per concern: :mod:`.index` (the index and its fingerprint), :mod:`.index_file` (its
file format), :mod:`.digests` (the leakage guard's caption digests, merged on disk and looked up
by binary search), :mod:`.corpora` (the corpus readers), :mod:`.units` (the units of work a corpus
is cut into), :mod:`.counting` (the counting code every worker runs), :mod:`.tally` (what the
driver runs: adding up, checkpoints, resume), :mod:`.local` and :mod:`.ray` (the two engines,
chosen in :mod:`.engines`), :mod:`.coco` (the default COCO train2017 corpus, downloaded and
checked) and :mod:`.resolve` (reference specifications such as ``coco2017`` or a shard folder, to
an index).
"""

from .coco import COCO2017_ANNOTATIONS_URL, COCO2017_CAPTIONS_MEMBER
from .corpora import (
    Captions,
    CocoCaptions,
    Corpus,
    HubDataset,
    ParquetShards,
    TextFile,
)
from .counting import caption_digest, normalise_caption
from .engines import ENGINES
from .index import ReferenceIndex
from .resolve import ACCEPTED_FORMS, DEFAULT_CAPTION_COLUMN, open_reference, resolve_reference

__all__ = [
    "ACCEPTED_FORMS",
    "COCO2017_ANNOTATIONS_URL",
    "COCO2017_CAPTIONS_MEMBER",
    "DEFAULT_CAPTION_COLUMN",
    "ENGINES",
    "Captions",
    "CocoCaptions",
    "Corpus",
    "HubDataset",
    "ParquetShards",
    "ReferenceIndex",
    "TextFile",
    "caption_digest",
    "normalise_caption",
    "open_reference",
    "resolve_reference",
]
