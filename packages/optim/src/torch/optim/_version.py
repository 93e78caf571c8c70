"""Version of the torch-optim distribution."""

__version__ = "0.4.0"
