"""``python -m client``: the terminal client (``uno-client``)."""

import sys

from client.cli import main

sys.exit(main())
