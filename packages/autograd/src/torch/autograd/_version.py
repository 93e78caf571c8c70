"""Version of the torch-autograd distribution."""

__version__ = "0.7.0"
