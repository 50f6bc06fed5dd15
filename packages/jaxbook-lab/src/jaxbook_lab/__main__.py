"""``python -m jaxbook_lab``: the same as the ``jaxbook-lab`` command."""

import sys

from jaxbook_lab.cli import main

sys.exit(main())
