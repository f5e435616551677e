"""Building a benchmark's BindSplit dataset: read and label its rows (:mod:`.builder`), declare
the added columns (:mod:`.features`), write and verify the manifest (:mod:`.manifest`) and the
dataset card (:mod:`.cards`, :mod:`.card_source`); :mod:`.datasets_compat` holds the
``datasets`` internals the writer needs."""
