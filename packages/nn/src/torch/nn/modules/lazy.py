"""``LazyModuleMixin``: modules whose parameter shapes are inferred from the first
input."""

from __future__ import annotations

from ..parameter import UninitializedBuffer, UninitializedParameter

__all__ = ["LazyModuleMixin"]


class LazyModuleMixin:
    """Mixin for ``Lazy*`` modules: before the first forward, a pre-hook calls
    ``initialize_parameters(*inputs)``; once every parameter has a shape, the module
    becomes ``cls_to_become`` (e.g. :class:`LazyLinear` becomes :class:`Linear`)."""

    cls_to_become = None

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._initialize_hook = self.register_forward_pre_hook(_infer_parameters)
        self._load_hook = self._register_load_state_dict_pre_hook(self._lazy_load_hook)

    def _lazy_load_hook(self, state_dict, prefix, *args) -> None:
        """Before loading: an uninitialized parameter or buffer takes the shape of its
        (initialized) value in ``state_dict``, so that the copy succeeds. The module keeps
        its lazy class until its first forward, as in PyTorch."""
        lazy = (UninitializedParameter, UninitializedBuffer)
        for name, value in list(self._parameters.items()) + list(self._buffers.items()):
            key = prefix + name
            if isinstance(value, lazy) and key in state_dict:
                loaded = state_dict[key]
                if not isinstance(loaded, lazy):
                    value.materialize(loaded.shape)

    def _save_to_state_dict(self, destination, prefix: str, keep_vars: bool) -> None:
        """As Module's, but placeholders go in as they are (they cannot be detached)."""
        super()._save_to_state_dict(destination, prefix, True)
        if keep_vars:
            return
        lazy = (UninitializedParameter, UninitializedBuffer)
        names = list(self._parameters) + list(self._buffers)
        for name in names:
            key = prefix + name
            value = destination.get(key)
            if value is not None and not isinstance(value, lazy):
                destination[key] = value.detach()

    def has_uninitialized_params(self) -> bool:
        """Whether any parameter or buffer still has no shape."""
        values = list(self._parameters.values()) + list(self._buffers.values())
        lazy = (UninitializedParameter, UninitializedBuffer)
        return any(isinstance(v, lazy) for v in values)

    def initialize_parameters(self, *args, **kwargs) -> None:
        """Give the parameters their shapes from the first input (subclasses)."""
        raise NotImplementedError(
            f"initialize_parameters is not implemented for {type(self).__name__}"
        )


def _infer_parameters(module, args):
    module.initialize_parameters(*args)
    if module.has_uninitialized_params():
        raise RuntimeError(f"module {module._get_name()} has not been fully initialized")
    module._initialize_hook.remove()
    del module._initialize_hook
    if module.cls_to_become is not None:
        module.__class__ = module.cls_to_become
