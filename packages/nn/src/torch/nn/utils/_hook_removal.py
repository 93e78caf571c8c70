"""Removal of the old-style reparametrization hooks (weight_norm, spectral_norm)."""

from __future__ import annotations


def remove_reparametrization(module, hook_type: type, name: str, label: str):
    """Undo the ``hook_type`` hook that reparametrizes ``module.<name>``; ``label`` names the
    reparametrization in the error raised when there is none."""
    for key, hook in list(module._forward_pre_hooks.items()):
        if isinstance(hook, hook_type) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[key]
            return module
    raise ValueError(f"{label} of '{name}' not found in {module}")
