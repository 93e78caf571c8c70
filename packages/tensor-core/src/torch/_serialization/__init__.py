"""The parts of ``torch.save`` / ``torch.load``: the zip container, the older formats,
the pickler that writes PyTorch's names and the restricted unpickler that reads them.

``torch.serialization`` is the public face; nothing here is public API.
"""
