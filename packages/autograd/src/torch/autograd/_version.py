"""Version of the torch-autograd distribution."""

__version__ = "0.5.0"
