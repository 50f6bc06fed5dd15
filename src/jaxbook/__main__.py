"""``python -m jaxbook``: the same as the ``jaxbook`` command."""

import sys

from jaxbook.cli import main

sys.exit(main())
