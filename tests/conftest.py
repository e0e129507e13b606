"""Shared test configuration."""
from __future__ import annotations

import os

from hypothesis import settings

# The default budget keeps the suite to a few minutes of CPU; HYPOTHESIS_PROFILE=long runs every
# property test long (HYPOTHESIS_PROFILE=dev shorter still).
settings.register_profile("ci", max_examples=50, deadline=None)
settings.register_profile("dev", max_examples=20, deadline=None)
settings.register_profile("long", max_examples=2000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
