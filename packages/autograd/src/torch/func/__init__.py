"""torch.func: composable function transforms (vmap, grad, vjp, jvp, jacrev, jacfwd,
hessian, functional_call)."""

from ._vmap import vmap

__all__ = ["vmap"]
