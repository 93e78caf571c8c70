"""Entries of the LAPACK-form factorisations that PyTorch does not differentiate
(``geqrf``, ``linalg.ldl_factor``, ``linalg.ldl_solve``): their backward raises the
error PyTorch raises. ``ormqr`` and ``linalg.householder_product`` are composites in
core, so their gradients come from the entries of the ops they are made of."""

from __future__ import annotations

from ._entry import Derivative


def _geqrf(grads, inputs, saved, outputs):
    raise NotImplementedError("the derivative for 'geqrf' is not implemented.")


def _not_implemented(name):
    def formula(grad, inputs, saved):
        raise RuntimeError(f"derivative for aten::{name} is not implemented")

    return formula


HOUSEHOLDER = {
    "geqrf": Derivative("GeqrfBackward0", (_geqrf,), saved_inputs=(), outputs=2),
    "_ldl_factor": Derivative(
        "NotImplemented", (_not_implemented("linalg_ldl_factor_ex"),), saved_inputs=()
    ),
    "_ldl_solve": Derivative(
        "NotImplemented",
        (_not_implemented("linalg_ldl_solve"),) * 3,
        saved_inputs=(),
    ),
}
