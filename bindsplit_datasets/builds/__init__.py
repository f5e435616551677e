"""Building a benchmark's BindSplit dataset: read and label its rows (:mod:`.builder`), declare
the added columns (:mod:`.features`), write and verify the manifest (:mod:`.manifest`) and the
dataset card (:mod:`.cards`, :mod:`.card_source`). The ``datasets`` internals the writer needs
are in :mod:`bindsplit_datasets.datasets_compat` (beside :mod:`bindsplit_datasets.parquet_files`,
which reads with them too)."""
