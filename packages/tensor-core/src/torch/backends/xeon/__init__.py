"""torch.backends.xeon: PyTorch's launcher for Intel Xeon (``run_cpu``) is not provided."""

__all__: list[str] = []
