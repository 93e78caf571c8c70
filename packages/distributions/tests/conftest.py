"""Tests import their helpers (dist_cases, dist_compare) from this folder."""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))
