"""Tensor methods PyTorch added in 2.x for tensor subclasses and training loops:
``Tensor.as_subclass`` (an alias of another Tensor subclass, still in the autograd graph)
and ``Tensor.register_post_accumulate_grad_hook`` (a hook run once a leaf's ``.grad``
holds its new sum, e.g. to step an optimizer during backward) and ``Tensor.module_load``
(how ``load_state_dict`` maps a state-dict value onto a parameter)."""

from __future__ import annotations

from .._interface import get_grad_engine
from .._interface import tensors as _tensors
from .._tensor import Tensor
from ._dispatch import defop

__all__ = ["as_subclass", "register_post_accumulate_grad_hook", "module_load"]


def _as_subclass(self: Tensor, cls) -> Tensor:
    """A ``cls`` instance sharing this tensor's memory: writes to one show in the other,
    and gradients flow back through it as through a view (``cls`` is not constructed:
    its ``__init__`` is not called)."""
    if not (isinstance(cls, type) and issubclass(cls, Tensor)):
        raise TypeError(
            "Creating a Tensor subclass from a class that does not inherit from Tensor is not "
            "possible. Make sure your class inherits from Tensor."
        )
    return _tensors.alias_as(cls, self.view_as(self))


as_subclass = defop("as_subclass", _as_subclass, method=_as_subclass, public=False)


def _register_post_accumulate_grad_hook(self: Tensor, hook):
    """Call ``hook(self)`` each time backward has accumulated a gradient into the
    ``.grad`` of this leaf tensor (not under ``torch.autograd.grad``, which fills no
    ``.grad``). Returns a handle whose ``remove()`` unregisters it (needs
    torch-autograd)."""
    if not self.requires_grad:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    if self.grad_fn is not None:
        raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
    return get_grad_engine().register_post_accumulate_grad_hook(self, hook)


register_post_accumulate_grad_hook = defop(
    "register_post_accumulate_grad_hook",
    _register_post_accumulate_grad_hook,
    method=_register_post_accumulate_grad_hook,
    public=False,
)


def _module_load(self: Tensor, other, assign: bool = False):
    """How ``nn.Module.load_state_dict`` turns the state-dict value ``other`` into what
    replaces this parameter or buffer when it swaps tensors: by default
    ``self.copy_(other).detach()``, or ``other.detach()`` with ``assign``. Subclasses
    override it; the result must be a new object (neither ``self`` nor ``other``)."""
    if assign:
        return other.detach()
    return self.copy_(other).detach()


module_load = defop("module_load", _module_load, method=_module_load, public=False)
