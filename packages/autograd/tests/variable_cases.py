"""Expressions of the PyTorch 0.4 migration around autograd: ``Variable`` as a class whose
instances are all tensors, ``torch.autograd.variable``, old-style ``Function`` instances.

tools/golden/record_legacy_api.py records what real PyTorch gives
(golden/variable.json); test_variable.py compares. Each outcome holds the value (or
the error's type and first line) and the warnings raised.
"""

from __future__ import annotations

import math
import warnings

SETUP = """
from torch.autograd import Variable
t = torch.ones(2)
leaf = torch.ones(2, requires_grad=True)
class Doubler(torch.autograd.Function):
    def forward(self, x):
        return x * 2
    def backward(self, g):
        return g * 2
class StaticDoubler(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
"""

CASES = {
    "isinstance_tensor": "isinstance(t, Variable)",
    "isinstance_parameter_like": "isinstance(leaf * 2, Variable)",
    "isinstance_number": "isinstance(3, Variable)",
    "isinstance_list": "isinstance([t], Variable)",
    "issubclass_tensor": "issubclass(torch.Tensor, Variable)",
    "variable_repr": "repr(Variable)",
    "metaclass_repr": "repr(type(Variable))",
    "variable_module": "Variable.__module__",
    "wrap": "Variable(t)",
    "wrap_type": "repr(type(Variable(t)))",
    "wrap_is_alias": "v = Variable(t); (v is t, v.data_ptr() == t.data_ptr(), v.requires_grad)",
    "wrap_requires_grad": "Variable(t, requires_grad=True)",
    "wrap_requires_grad_positional": "Variable(t, True).requires_grad",
    "wrap_does_not_touch_input": "v = Variable(t, requires_grad=True); t.requires_grad",
    "wrap_non_leaf_detaches": "v = Variable(leaf * 2); (v.grad_fn, v.requires_grad, v.is_leaf)",
    "wrap_leaf": "v = Variable(leaf); (v is leaf, v.requires_grad, v.is_leaf)",
    "wrap_nothing": "Variable()",
    "wrap_list": "Variable([1, 2])",
    "wrap_int_requires_grad": "Variable(torch.arange(2), requires_grad=True)",
    "volatile": "Variable(t, volatile=True).requires_grad",
    "volatile_false": "Variable(t, volatile=False).requires_grad",
    "volatile_and_requires_grad": "Variable(t, True, True)",
    "gradient_through_wrap": (
        "v = Variable(torch.tensor([1., 2.]), requires_grad=True); (v * v).sum().backward(); v.grad"
    ),
    "variable_function": "torch.autograd.variable(t)",
    "variable_module_import": (
        "import importlib; importlib.import_module('torch.autograd.variable').Variable is Variable"
    ),
    "variable_attribute": "callable(torch.autograd.variable)",
    "from_variable_import": ("from torch.autograd.variable import Variable as V; V is Variable"),
    "old_style_function": "Doubler()(t)",
    "old_style_function_apply": "Doubler.apply(t)",
    "static_function_instance": "StaticDoubler()(t)",
    "static_function_apply": "StaticDoubler.apply(t)",
}


def _describe(torch, value):
    if isinstance(value, torch.Tensor):
        return {"repr": repr(value), "dtype": str(value.dtype)}
    if isinstance(value, torch.Size):
        return {"size": list(value)}
    if isinstance(value, (tuple, list)):
        return [_describe(torch, v) for v in value]
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        return repr(value)
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return repr(value)


def outcome(torch, code: str) -> dict:
    """What running ``code`` (statements joined by "; ", the last an expression) gives:
    the value or the error (builtin type and first line), and the warnings' texts."""
    import pickle

    namespace = {"torch": torch, "pickle": pickle, "__name__": "variable_cases"}
    exec(SETUP, namespace)
    *statements, expression = code.split("; ")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            for statement in statements:
                exec(statement, namespace)
            result = {"value": _describe(torch, eval(expression, namespace))}
        except Exception as error:  # noqa: BLE001 - the exception is the recorded result
            kind = next(k for k in type(error).__mro__ if k.__module__ == "builtins")
            # (a missing kernel's message goes on to list PyTorch's dispatch keys)
            message = str(error).split("\n")[0].split(" If you are a Facebook employee")[0]
            result = {"error": kind.__name__, "message": message}
    # PyTorch's C++ warnings end with where in its sources they were raised
    result["warnings"] = [
        str(w.message).split(" (Triggered internally at")[0]
        for w in caught
        if not issubclass(w.category, DeprecationWarning)
    ]
    return result
