"""The version of torch-jit."""

__version__ = "0.1.0"
