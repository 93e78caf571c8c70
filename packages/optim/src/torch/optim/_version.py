"""Version of the torch-optim distribution."""

__version__ = "0.5.0"
