"""Scoring a build's samples: per-sample score matrices from a model, or from a scores file.

- :mod:`.scorer`: :class:`~.scorer.Scorer`, Accelerate over a dual encoder or a pair scorer;
- :mod:`.pairs`: a pair scorer's run (only the pairs the samples need, each once);
- :mod:`.inputs`: the distinct images and captions of a dataset, and the DataLoader plumbing;
- :mod:`.cache`: :class:`~.cache.EmbeddingCache`, embeddings and pair scores on disk;
- :mod:`.scores_file`: the public per-sample scores format (write, read, check against a
  build); it imports no torch, so a scores file can be checked without the model stack.

Import from the module that defines a name (``from bindsplit_datasets.scoring.scorer import
Scorer``); this package exports nothing itself, so importing it loads nothing.
"""
