"""How many examples a property test draws: half its own number in the regular run, all of it in a
thorough one.

Each test names the number it draws when ``BPE_LAB_THOROUGH=1`` is set (run that before a release,
or after changing the engine); the regular run, CI's included, draws half, at least 25, so that the
property tests take a small part of the suite's time. Hypothesis replays from its database (``.hypothesis/``)
every example that ever failed here, at either size.

>>> examples(300) in (150, 300), examples(40) in (25, 40)
(True, True)
"""

from __future__ import annotations

import os

THOROUGH = os.environ.get("BPE_LAB_THOROUGH") == "1"


def examples(thorough: int) -> int:
    """``thorough`` in a thorough run, else half of it (never under 25, nor over ``thorough``)."""
    return thorough if THOROUGH else min(thorough, max(25, thorough // 2))
