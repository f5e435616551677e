"""``python -m bindsplit_datasets``: the ``bindsplit`` command line."""

import sys

from .cli import main

sys.exit(main())
