"""torch.func: composable function transforms.

``vmap`` vectorises a function of one example over a batch; ``grad``, ``vjp``,
``jacrev`` differentiate by reverse mode and ``jvp``, ``jacfwd`` by forward mode
(``torch.autograd.forward_ad``); ``hessian`` is forward over reverse. They compose
(``vmap(grad(loss))`` gives per-example gradients), and ``functional_call`` runs an
``nn.Module`` with parameters passed in, so that models can be transformed too.

Shipped by torch-autograd (no dependency on torch-nn: modules are used through their
own methods).
"""

from ._eager_transforms import (
    grad,
    grad_and_value,
    hessian,
    jacfwd,
    jacrev,
    jvp,
    linearize,
    vjp,
)
from ._functional_call import functional_call, stack_module_state
from ._utilities import debug_unwrap, functionalize, replace_all_batch_norm_modules_
from ._vmap import vmap

__all__ = [
    "debug_unwrap",
    "functional_call",
    "functionalize",
    "grad",
    "grad_and_value",
    "hessian",
    "jacfwd",
    "jacrev",
    "jvp",
    "linearize",
    "replace_all_batch_norm_modules_",
    "stack_module_state",
    "vjp",
    "vmap",
]
