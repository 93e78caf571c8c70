"""Shared test setup: the golden case module beside the tests is importable."""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))
