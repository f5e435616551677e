"""``python -m bindsplit_datasets``: the ``bindsplit`` command line."""

import sys

try:
    from .cli import main
except KeyboardInterrupt:  # Ctrl-C while the modules are still importing
    print("bindsplit: interrupted", file=sys.stderr)
    sys.exit(130)
except MemoryError:  # memory exhausted while they import (ulimit -v): one line, exit code 2
    print("bindsplit: error: out of memory: raise the memory limit (ulimit -v)", file=sys.stderr)
    sys.exit(2)

sys.exit(main())
