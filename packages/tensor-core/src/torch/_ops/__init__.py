"""Core ops, one file per family. Importing a family registers its ops in
``torch._interface.ops``."""

from . import linalg, pointwise, reduction, scatter, views  # noqa: F401
