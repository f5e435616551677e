"""Sub-commands of the ``bindsplit`` command line, one module each (see
:mod:`bindsplit_datasets.cli`)."""
