"""``python -m client.bots``: the same as ``uno-bot``."""

import sys

from client.bots.cli import main

sys.exit(main())
