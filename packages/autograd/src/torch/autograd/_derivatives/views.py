"""Derivatives of the view, scatter and indexing families."""

from __future__ import annotations

import numpy as np

from torch._interface import ops

from ._entry import Derivative, shape_of, sum_to_shape


def _op(name):
    return ops[name].function


def _view(grad, inputs, saved):
    return grad.reshape(saved.input_geometry[0])  # the input's shape


def _reshape(grad, inputs, saved):
    return grad.reshape(saved.input_shape)


def _permute(grad, inputs, saved):
    return grad.permute(tuple(int(i) for i in np.argsort(saved.dims)))


def _expand(grad, inputs, saved):
    return sum_to_shape(grad, saved.input_shape)


def _as_strided(grad, inputs, saved):
    return _op("_view_scatter")(grad, saved.input_geometry, saved.view_geometry)


def _rebased_retyped_view(grad, inputs, saved):
    """The gradient of a view that reinterprets its base's dtype (complex elements as real
    pairs or back) once an in-place write rebased it (see the engine's ``_rebase_view``):
    the geometries count real elements."""
    base_complex, view_complex = saved.complex_flags
    if view_complex:
        grad = _op("view_as_real")(grad)
    grad = _op("_view_scatter")(grad, saved.base_geometry, saved.view_geometry)
    return _op("view_as_complex")(grad) if base_complex else grad


def _view_scatter(grad, inputs, saved):
    return _op("_view_gather")(grad, saved.input_geometry, saved.view_geometry)


def _view_gather(grad, inputs, saved):
    return _op("_view_scatter")(grad, saved.input_geometry, saved.view_geometry)


def _index(grad, inputs, saved):
    return _op("_index_scatter")(grad, saved.index, saved.shape)


def _index_scatter(grad, inputs, saved):
    return _op("index")(grad, saved.index)


def _index_put_self(grad, inputs, saved):
    mask = ops["index_put_"].extra["backward_mask"](saved.shape, saved.index, grad.dtype)
    return grad * mask


def _index_put_values(grad, inputs, saved):
    return sum_to_shape(_op("index")(grad, saved.index), tuple(inputs[1].shape))


def _view_as_real(grad, inputs, saved):
    return _op("view_as_complex")(grad.contiguous())


def _view_as_complex(grad, inputs, saved):
    return _op("view_as_real")(grad)


def _conj(grad, inputs, saved):
    return grad.conj()


def _complex_real(grad, inputs, saved):
    return sum_to_shape(grad.real, shape_of(inputs[0]))


def _complex_imag(grad, inputs, saved):
    return sum_to_shape(grad.imag, shape_of(inputs[1]))


VIEWS = {
    "view": Derivative("ViewBackward0", (_view,), saved_inputs=()),
    "reshape": Derivative("ViewBackward0", (_reshape,), saved_inputs=()),
    "permute": Derivative("PermuteBackward0", (_permute,), saved_inputs=()),
    "expand": Derivative("ExpandBackward0", (_expand,), saved_inputs=()),
    "as_strided": Derivative("AsStridedBackward0", (_as_strided,), saved_inputs=()),
    # composite views (torch-core records them as the primitive they are made of) under
    # the node names PyTorch gives them; the gradients are those of the primitive
    **{
        f"_view_{name}": Derivative(node, (formula,), saved_inputs=())
        for name, node, formula in (
            ("select", "SelectBackward0", _as_strided),
            ("slice", "SliceBackward0", _as_strided),
            ("alias", "AliasBackward0", _as_strided),
            ("diagonal", "DiagonalBackward0", _as_strided),
            ("unfold", "UnfoldBackward0", _as_strided),
            ("unsqueeze", "UnsqueezeBackward0", _as_strided),
            ("unbind", "UnbindBackward0", _as_strided),
            ("split", "SplitBackward0", _as_strided),
            ("split_with_sizes", "SplitWithSizesBackward0", _as_strided),
            ("unsqueeze_view", "UnsqueezeBackward0", _view),
            ("squeeze", "SqueezeBackward0", _view),
            ("squeeze_dim", "SqueezeBackward1", _view),
            ("squeeze_dims", "SqueezeBackward2", _view),
            ("transpose", "TransposeBackward0", _permute),
            ("t", "TBackward0", _permute),
        )
    },
    # not ops: the histories of dtype-reinterpreting views rebased by an in-place write
    "_rebased_view_as_real": Derivative(
        "ViewAsRealBackward0", (_rebased_retyped_view,), saved_inputs=()
    ),
    "_rebased_view_as_complex": Derivative(
        "ViewAsComplexBackward0", (_rebased_retyped_view,), saved_inputs=()
    ),
    "_view_scatter": Derivative("AsStridedBackwardBackward0", (_view_scatter,)),
    "_view_gather": Derivative("AsStridedBackward0", (_view_gather,)),
    "index": Derivative("IndexBackward0", (_index,), saved_inputs=()),
    "_index_scatter": Derivative("IndexBackwardBackward0", (_index_scatter,)),
    "index_put_": Derivative(
        "IndexPutBackward0", (_index_put_self, _index_put_values), saved_inputs=()
    ),
    "view_as_real": Derivative("ViewAsRealBackward0", (_view_as_real,), saved_inputs=()),
    "view_as_complex": Derivative("ViewAsComplexBackward0", (_view_as_complex,), saved_inputs=()),
    "conj": Derivative("ConjBackward0", (_conj,), saved_inputs=(), drops_inputs=True),
    "complex": Derivative(
        "ComplexBackward0", (_complex_real, _complex_imag), saved_inputs=(), drops_inputs=True
    ),
}
