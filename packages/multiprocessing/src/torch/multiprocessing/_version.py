"""Version of the torch-multiprocessing distribution."""

__version__ = "0.4.0"
