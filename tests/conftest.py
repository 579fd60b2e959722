"""Configuration shared by the whole test suite.

Hypothesis profiles: ``ci`` is loaded when the ``CI`` environment variable is set (sized so
the engine's state machine takes about a minute on two cores), ``dev`` otherwise (quick,
for the edit-test loop). ``HYPOTHESIS_PROFILE`` names a profile explicitly and wins over
both. Every profile runs without a deadline: the machines tests run on vary too much for
per-example timing to mean anything.

``tests/bench`` holds benchmarks, which measure and print but never assert; pytest must
not collect them.

``XDG_STATE_HOME`` points at a fresh temporary folder for the whole run (servers started
by tests keep their journal there unless a test names one), and ``XDG_CONFIG_HOME`` at
another (a client remembers a name changed in its lobby there).
"""

from __future__ import annotations

import os
import tempfile

from hypothesis import settings

collect_ignore = ["bench"]

# A server started without --state or --no-state keeps its journal in the user's state
# directory; no test may touch the real one, so every process of the run gets its own.
os.environ["XDG_STATE_HOME"] = tempfile.mkdtemp(prefix="uno-test-state-")
os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="uno-test-config-")

settings.register_profile("ci", max_examples=80, stateful_step_count=150, deadline=None)
settings.register_profile("dev", max_examples=25, stateful_step_count=60, deadline=None)
_default = "ci" if os.environ.get("CI") else "dev"
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or _default)
