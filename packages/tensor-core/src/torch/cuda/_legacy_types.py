"""``torch.cuda.FloatTensor``, ``torch.cuda.sparse.FloatTensor``, ``torch.cuda.FloatStorage``
and the rest: PyTorch 0.x's CUDA tensor types.

As with the CPU ones (``torch._legacy``), they are not subclasses of ``Tensor``:
``isinstance`` checks the device type, dtype and layout. Calling one makes a CUDA
tensor through ``torch.empty``/``torch.tensor`` with ``device="cuda"``; without CUDA it
fails as in PyTorch's CPU build.
"""

from __future__ import annotations

from . import _state

__all__ = ["make_tensor_types", "make_storage_types"]

_TENSOR_NAMES = (
    "BFloat16",
    "Bool",
    "Byte",
    "Char",
    "Double",
    "Float",
    "Half",
    "Int",
    "Long",
    "Short",
)
_SPARSE_NAMES = ("BFloat16", "Byte", "Char", "Double", "Float", "Half", "Int", "Long", "Short")
_STORAGE_NAMES = _TENSOR_NAMES + ("ComplexDouble", "ComplexFloat")
_DTYPE_NAMES = {
    "BFloat16": "bfloat16",
    "Bool": "bool",
    "Byte": "uint8",
    "Char": "int8",
    "Double": "float64",
    "Float": "float32",
    "Half": "float16",
    "Int": "int32",
    "Long": "int64",
    "Short": "int16",
    "ComplexDouble": "complex128",
    "ComplexFloat": "complex64",
}


class _CudaLegacyType(type):
    """The metaclass of the legacy CUDA types: ``isinstance`` holds for an instance of
    ``_instance_class()`` on a CUDA device with the type's dtype."""

    def _instance_class(cls) -> type:
        raise NotImplementedError

    def __instancecheck__(cls, instance) -> bool:
        return (
            isinstance(instance, cls._instance_class())
            and instance.device.type == "cuda"
            and instance.dtype is cls.dtype
        )

    def __repr__(cls) -> str:
        return f"<class '{cls.__module__}.{cls.__name__}'>"


class _CudaTensorType(_CudaLegacyType):
    def _instance_class(cls) -> type:
        import torch

        return torch.Tensor

    def __instancecheck__(cls, instance) -> bool:
        return super().__instancecheck__(instance) and instance.is_sparse == cls.is_sparse


def _new_cuda_tensor(cls, *args, device=None):
    import torch

    if _state.runtime() is None:
        raise TypeError(
            f"type {cls.__module__}.{cls.__name__} not available. Torch not compiled with "
            "CUDA enabled."
        )
    if cls.is_sparse:
        raise NotImplementedError("sparse CUDA tensors are not supported by this project")
    target = device if device is not None else "cuda"
    if not args:
        return torch.empty(0, dtype=cls.dtype, device=target)
    if all(isinstance(a, int) and not isinstance(a, bool) for a in args):
        return torch.empty(*args, dtype=cls.dtype, device=target)
    if len(args) == 1 and isinstance(args[0], torch.Size):
        return torch.empty(args[0], dtype=cls.dtype, device=target)
    if len(args) == 1:
        return torch.as_tensor(args[0], dtype=cls.dtype, device=target)
    raise TypeError(
        "new() received an invalid combination of arguments - got "
        f"({', '.join(type(a).__name__ for a in args)})"
    )


def _legacy_types(metaclass, kind: str, names, new, module: str, **flags) -> dict[str, type]:
    """One ``<Name><kind>`` class of ``metaclass`` per name of ``names`` (``Float``, ...):
    constructed by ``new``, with the name's dtype, ``is_cuda`` and ``flags`` as
    attributes."""
    import torch

    types = {}
    for name in names:
        dtype = getattr(torch, _DTYPE_NAMES[name])
        namespace = {
            "__slots__": (),
            "__new__": new,
            "__module__": module,
            "__doc__": f"Legacy constructor and isinstance check of CUDA {dtype} {kind.lower()}s.",
            "dtype": dtype,
            "is_cuda": True,
            **flags,
        }
        types[name + kind] = metaclass(name + kind, (), namespace)
    return types


def make_tensor_types(module: str, sparse: bool) -> dict[str, type]:
    """The legacy CUDA tensor types of ``module`` (``torch.cuda`` or ``torch.cuda.sparse``)."""
    names = _SPARSE_NAMES if sparse else _TENSOR_NAMES
    return _legacy_types(
        _CudaTensorType, "Tensor", names, _new_cuda_tensor, module, is_sparse=sparse
    )


class _CudaStorageType(_CudaLegacyType):
    def _instance_class(cls) -> type:
        import torch

        return torch.TypedStorage


def _new_cuda_storage(cls, *args, **kwargs):
    import torch

    _state.lazy_init()
    if not args:
        return torch.empty(0, dtype=cls.dtype, device="cuda").storage()
    (arg,) = args
    if isinstance(arg, int):
        return torch.empty(arg, dtype=cls.dtype, device="cuda").storage()
    return torch.tensor(arg, dtype=cls.dtype, device="cuda").storage()


def make_storage_types() -> dict[str, type]:
    """``torch.cuda.FloatStorage`` and the other legacy CUDA storage types."""
    return _legacy_types(
        _CudaStorageType, "Storage", _STORAGE_NAMES, _new_cuda_storage, "torch.cuda"
    )
