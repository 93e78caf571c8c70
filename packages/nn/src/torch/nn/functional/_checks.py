"""Argument checks of the ``nn.functional`` families, made before core's kernels run so
that bad sizes raise PyTorch's exception type (and a message naming the values) instead
of a ``ZeroDivisionError`` deep in the arithmetic or a silently empty result."""

from __future__ import annotations

import math

__all__ = []

_DIM_NAMES = {1: ("W",), 2: ("H", "W"), 3: ("D", "H", "W")}


def ints(value, nd: int) -> tuple:
    """``value`` (an int or a sequence of ints) as an ``nd``-tuple; a wrong length is
    left for the caller's own message."""
    if isinstance(value, (tuple, list)):
        return tuple(value) * nd if len(value) == 1 else tuple(value)
    return (value,) * nd


def check_input_dims(input, nd: int, name: str) -> None:
    """An unbatched (nd + 1) or batched (nd + 2) input."""
    if nd == 2 and input.dim() < 2:
        # PyTorch's 2-d pools read size(-2) first
        raise IndexError(
            f"Dimension out of range (expected to be in range of [-{max(input.dim(), 1)}, "
            f"{max(input.dim(), 1) - 1}], but got -2)"
        )
    if input.dim() not in (nd + 1, nd + 2):
        raise RuntimeError(
            f"{name}(): Expected {nd + 1}D (unbatched) or {nd + 2}D (batched) input, but got "
            f"input of size: {list(input.shape)}"
        )


def check_pool_args(name: str, nd: int, kernel_size, stride, padding, dilation=1) -> None:
    """Kernel, stride and dilation positive, padding non-negative."""
    kernel = ints(kernel_size, nd)
    strides = kernel if stride is None or stride == () else ints(stride, nd)
    if any(k <= 0 for k in kernel):
        raise RuntimeError(
            f"{name}() kernel_size must be greater than zero, but got {list(kernel)}"
        )
    if any(s <= 0 for s in strides):
        raise RuntimeError(f"{name}() stride should be greater than zero, but got {list(strides)}")
    pads = ints(padding, nd)
    if any(p < 0 for p in pads):
        raise RuntimeError(f"{name}() padding must be non-negative, but got {list(pads)}")
    dilations = ints(dilation, nd)
    if any(d <= 0 for d in dilations):
        raise RuntimeError(
            f"{name}() dilation should be greater than zero, but got {list(dilations)}"
        )


def check_divisor(divisor_override) -> None:
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")


def check_adaptive(input, output_size, nd: int, name: str) -> tuple:
    """The ``nd`` output sizes (None keeps the input's), checked as PyTorch does."""
    if input.dim() not in (nd + 1, nd + 2):
        if name.startswith("adaptive_avg") and input.dim() < nd:
            # PyTorch reads the spatial sizes first and fails on the missing dim
            raise IndexError(
                f"Dimension out of range (expected to be in range of [-{input.dim()}, "
                f"{input.dim() - 1}], but got {-nd})"
            )
        raise RuntimeError(
            f"{name}(): Expected {nd + 1}D or {nd + 2}D tensor, but got: {list(input.shape)}"
        )
    sizes = ints(output_size, nd)
    if len(sizes) != nd:
        raise RuntimeError(f"{name}: output_size must be {nd} ints, but got {list(sizes)}")
    spatial = tuple(input.shape[-nd:])
    sizes = tuple(spatial[i] if s is None else s for i, s in enumerate(sizes))
    if any(s < 0 for s in sizes):
        shape = list(input.shape[:-nd]) + list(sizes)
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(sizes)}: {shape}")
    return sizes


def check_conv_args(input, weight, bias, stride, padding, dilation, groups, nd, name,
                    output_padding=0) -> None:  # fmt: skip
    """Stride, dilation and groups positive, paddings non-negative, a bias of one value
    per output channel in the input's dtype."""
    if any(s <= 0 for s in ints(stride, nd)):
        raise RuntimeError(f"{name}: non-positive stride is not supported, got {stride}")
    if not isinstance(padding, str) and any(p < 0 for p in ints(padding, nd)):
        raise RuntimeError(f"{name}: negative padding is not supported, got {padding}")
    if any(p < 0 for p in ints(output_padding, nd)):
        raise RuntimeError(
            f"{name}: negative output_padding is not supported, got {output_padding}"
        )
    if any(d <= 0 for d in ints(dilation, nd)):
        raise RuntimeError(
            f"{name}: dilation should be greater than zero, but got {list(ints(dilation, nd))}"
        )
    if groups <= 0:
        raise RuntimeError(f"{name}: non-positive groups is not supported, got {groups}")
    if bias is None:
        return
    transposed = name.startswith("conv_transpose")
    # (PyTorch's 1-d and 2-d transposed convolutions accept another bias dtype)
    if bias.dtype != input.dtype and not (transposed and nd < 3):
        raise RuntimeError(
            f"Input type ({_c_name(input.dtype)}) and bias type ({_c_name(bias.dtype)}) "
            "should be the same"
        )
    channels = weight.shape[1] * groups if transposed else weight.shape[0]
    if weight.dim() == nd + 2 and (bias.dim() != 1 or bias.shape[0] != channels):
        raise RuntimeError(
            f"Given weight of size {list(weight.shape)}, expected bias to be 1-dimensional "
            f"with {channels} elements, but got bias of size {list(bias.shape)} instead"
        )


def _c_name(dtype) -> str:
    """PyTorch's C++ name of a dtype in the type-mismatch messages."""
    name = str(dtype).replace("torch.", "")
    return {"float32": "float", "float64": "double", "int64": "long", "int32": "int"}.get(
        name, name
    )


def check_fold_args(kernel_size, dilation, padding, stride) -> None:
    """im2col/col2im geometry: positive kernel, stride and dilation, padding >= 0."""
    for what, values, low in (
        ("kernel size", kernel_size, 1),
        ("stride", stride, 1),
        ("dilation", dilation, 1),
        ("padding", padding, 0),
    ):
        values = ints(values, 2)
        if any(v < low for v in values):
            needs = "greater than zero" if low else "non-negative"
            raise RuntimeError(
                f"{what} should be {needs}, but got {what.split()[0]}_height: {values[0]} "
                f"{what.split()[0]}_width: {values[-1]}"
            )


def check_output_sizes(input, sizes, nd: int) -> None:
    """The output sizes of a resampling: all at least 1."""
    if any(s <= 0 for s in sizes):
        names = _DIM_NAMES[nd]
        given = ", ".join(f"{n}: {s}" for n, s in zip(names, input.shape[-nd:]))
        wanted = ", ".join(f"{n}: {s}" for n, s in zip(names, sizes))
        raise RuntimeError(
            f"Input and output sizes should be greater than 0, but got input ({given}) "
            f"output ({wanted})"
        )


def _rank_error(what: str, spatial, got: str, form: str, letter: str) -> ValueError:
    """PyTorch's error for a ``size`` or ``scale_factor`` of the wrong length."""
    return ValueError(
        f"Input and {what} must have the same number of spatial dimensions, but got input "
        f"with spatial dimensions of {list(spatial)} and {got}. Please provide input tensor "
        f"in (N, C, d1, d2, ...,dK) format and {form} in ({letter}1, {letter}2, "
        f"...,{letter}K) format."
    )


def interpolate_sizes(input, size, scale_factor, nd: int, mode: str):
    """The output sizes an ``interpolate`` call asks for (None when neither ``size`` nor
    ``scale_factor`` is given: core explains), with PyTorch's checks of both forms."""
    spatial = tuple(input.shape[-nd:])
    if size is not None and scale_factor is None:
        if isinstance(size, (tuple, list)) and len(size) != nd:
            raise _rank_error("output", spatial, f"output size of {list(size)}", "output size", "o")
        sizes = ints(size, nd)
    elif scale_factor is not None and size is None:
        if isinstance(scale_factor, (tuple, list)) and len(scale_factor) != nd:
            got = f"scale_factor of shape {list(scale_factor)}"
            raise _rank_error("scale_factor", spatial, got, "scale_factor", "s")
        scales = ints(scale_factor, nd)
        if not all(math.isfinite(float(s)) for s in scales):
            raise RuntimeError(
                f"value cannot be converted to type int64_t without overflow: scale_factor "
                f"{list(scales)}"
            )
        sizes = tuple(math.floor(n * float(s)) for n, s in zip(spatial, scales))
    else:
        return None
    if mode != "area":  # adaptive average pooling: an empty output is fine there
        check_output_sizes(input, sizes, nd)
    return sizes
