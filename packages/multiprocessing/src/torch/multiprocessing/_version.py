"""Version of the torch-multiprocessing distribution."""

__version__ = "0.5.0"
