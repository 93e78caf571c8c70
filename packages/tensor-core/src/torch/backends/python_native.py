"""torch.backends.python_native: switches for operator overrides written in Python DSLs
(Triton, CuTe DSL). None of these DSLs drives any operator here, so none is available and
no operation is overridden; the enable/disable bookkeeping is kept so scripts that toggle
it run unchanged."""

from __future__ import annotations

import sys as _sys
from contextlib import contextmanager as _contextmanager

from . import ContextProp, PropModule, flags_frozen

__all__ = ["ContextProp", "DSLController", "PropModule", "PythonNativeModule", "flags_frozen"]

_ALL_DSLS = ["cutedsl", "triton"]
# what has been switched off: DSL names, operator symbols, dispatch keys
_disabled: dict[str, set] = {"dsls": set(), "ops": set(), "keys": set()}


def _check_dsl(name: str) -> None:
    if name not in _ALL_DSLS:
        raise ValueError(f"Unknown DSL: {name}. Available DSLs: {_ALL_DSLS}")


class DSLController:
    """The switch of one DSL's operator overrides (``torch.backends.python_native.triton``)."""

    def __init__(self, dsl_name: str):
        self._dsl_name = dsl_name

    @property
    def name(self) -> str:
        return self._dsl_name

    @property
    def available(self) -> bool:
        return False  # no DSL runtime is wired to this project's operators

    @property
    def version(self):
        return None

    @property
    def enabled(self) -> bool:
        return self._dsl_name not in _disabled["dsls"]

    @enabled.setter
    def enabled(self, value: bool):
        if flags_frozen():
            raise RuntimeError(
                f"not allowed to set {self._dsl_name} DSL flags after disable_global_flags; "
                "please use flags() context manager instead"
            )
        self.enable() if value else self.disable()

    def disable(self):
        _check_dsl(self._dsl_name)
        _disabled["dsls"].add(self._dsl_name)

    def enable(self):
        _disabled["dsls"].discard(self._dsl_name)

    @_contextmanager
    def disabled(self):
        was_enabled = self.enabled
        try:
            self.disable()
            yield
        finally:
            if was_enabled:
                self.enable()

    def __repr__(self):
        available = "available" if self.available else "unavailable"
        enabled = "enabled" if self.enabled else "disabled"
        return f"DSLController({self._dsl_name}, {available}, {enabled})"


_controllers = {name: DSLController(name) for name in _ALL_DSLS}


class PythonNativeModule(PropModule):
    def __init__(self, original_module):
        super().__init__(original_module, original_module.__name__)

    @property
    def available_dsls(self) -> list[str]:
        """The DSLs whose runtime is installed and wired up (none here)."""
        return []

    @property
    def all_dsls(self) -> list[str]:
        """Every DSL PyTorch knows of."""
        return list(_ALL_DSLS)

    def get_dsl_operations(self, dsl_name: str) -> list[str]:
        """The operators ``dsl_name`` overrides (none here)."""
        return []

    def disable_operations(self, *op_symbols: str):
        _disabled["ops"].update(op_symbols)

    def enable_operations(self, *op_symbols: str):
        _disabled["ops"].difference_update(op_symbols)

    def disable_dispatch_keys(self, *dispatch_keys: str):
        _disabled["keys"].update(dispatch_keys)

    def enable_dispatch_keys(self, *dispatch_keys: str):
        _disabled["keys"].difference_update(dispatch_keys)

    @_contextmanager
    def operations_disabled(self, *op_symbols: str):
        already = {op for op in op_symbols if op in _disabled["ops"]}
        self.disable_operations(*op_symbols)
        try:
            yield
        finally:
            self.enable_operations(*(op for op in op_symbols if op not in already))

    def is_operation_disabled(self, op_symbol: str) -> bool:
        return op_symbol in _disabled["ops"]

    def is_dsl_disabled(self, dsl_name: str) -> bool:
        return dsl_name in _disabled["dsls"]

    def __getattr__(self, name: str):
        # like PyTorch's, the module hands out its DSL switches only, not its imports
        if name in _controllers:
            return _controllers[name]
        raise AttributeError(f"module '{self.__name__}' has no attribute '{name}'")

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(_ALL_DSLS) | set(vars(self.m)))


_sys.modules[__name__] = PythonNativeModule(_sys.modules[__name__])
