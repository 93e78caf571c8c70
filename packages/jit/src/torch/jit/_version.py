"""The version of torch-jit."""

__version__ = "0.2.0"
