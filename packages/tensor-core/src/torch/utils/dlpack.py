"""torch.utils.dlpack: DLPack capsules in and out."""

from .._interop import from_dlpack, to_dlpack

__all__ = ["from_dlpack", "to_dlpack"]
