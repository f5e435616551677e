"""``python -m bindsplit_datasets``: the ``bindsplit`` command line."""

import sys

try:
    from .cli import main
except KeyboardInterrupt:  # Ctrl-C while the modules are still importing
    print("bindsplit: interrupted", file=sys.stderr)
    sys.exit(130)

sys.exit(main())
