"""Version of the torch-multiprocessing distribution."""

__version__ = "0.3.0"
