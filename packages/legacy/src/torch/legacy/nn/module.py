"""The Lua Torch module protocol: a module keeps its last ``output`` and ``gradInput``
and computes its gradients by hand (no autograd)."""

from __future__ import annotations

import copy
import math

import torch

__all__ = ["Module"]


def _convert(value, dtype, cache):
    """``value`` with every floating tensor in it (lists, tuples and dicts included)
    converted to ``dtype``; a tensor met twice is converted once (``cache``)."""
    if isinstance(value, torch.Tensor):
        if not value.is_floating_point():
            return value
        key = id(value)
        if key not in cache:
            cache[key] = value.to(dtype)
        return cache[key]
    if isinstance(value, Module):
        value.type(dtype, cache)
        return value
    if isinstance(value, list):
        return [_convert(v, dtype, cache) for v in value]
    if isinstance(value, tuple):
        return tuple(_convert(v, dtype, cache) for v in value)
    if isinstance(value, dict):
        return {k: _convert(v, dtype, cache) for k, v in value.items()}
    return value


def _dtype_of(type_name):
    """``torch.DoubleTensor``, ``"torch.DoubleTensor"`` or ``torch.float64`` as a dtype."""
    if isinstance(type_name, torch.dtype):
        return type_name
    name = type_name if isinstance(type_name, str) else getattr(type_name, "__name__", "")
    return torch.empty(0).type(name if name.startswith("torch.") else f"torch.{name}").dtype


class _HoldsTensors:
    """What modules and criterions share: converting the tensors they hold to another
    type, deep copies, and Lua Torch's repr."""

    def type(self, type=None, tensorCache=None):
        """Without arguments, the tensor type name of this module (``"torch.FloatTensor"``);
        with one, convert every floating tensor the module holds to it and return self."""
        if type is None:
            return self._type
        dtype = _dtype_of(type)
        cache = {} if tensorCache is None else tensorCache
        for key, value in list(self.__dict__.items()):
            self.__dict__[key] = _convert(value, dtype, cache)
        self._type = torch.empty(0, dtype=dtype).type()
        return self

    def float(self):
        return self.type(torch.float32)

    def double(self):
        return self.type(torch.float64)

    def clone(self):
        return copy.deepcopy(self)

    #: the attribute Lua Torch's repr shows in parentheses after the class name, if any
    _repr_attribute: str | None = None

    def __repr__(self):
        name = f"nn.{type(self).__name__}"
        if self._repr_attribute is None:
            return name
        return f"{name}({getattr(self, self._repr_attribute)})"


class Module(_HoldsTensors):
    """Base of every ``torch.legacy.nn`` module, with Lua Torch's protocol.

    ``forward(input)`` computes and returns ``self.output`` (``updateOutput``);
    ``backward(input, gradOutput, scale=1)`` computes ``self.gradInput``
    (``updateGradInput``) and adds ``scale`` times the parameter gradients to the
    ``grad*`` buffers (``accGradParameters``). ``backward`` expects the ``input`` of the
    last ``forward``. Gradients accumulate until ``zeroGradParameters()``.

    Examples::

        >>> m = nn.Linear(3, 2)
        >>> out = m.forward(torch.ones(4, 3))
        >>> grad = m.backward(torch.ones(4, 3), torch.ones(4, 2))
        >>> out.shape, grad.shape, m.gradBias
        (torch.Size([4, 2]), torch.Size([4, 3]), tensor([4., 4.]))
    """

    def __init__(self):
        self.gradInput = torch.empty(0)
        self.output = torch.empty(0)
        self._type = self.output.type()
        self.train = True

    # -- the protocol -------------------------------------------------------------------

    def updateOutput(self, input):
        return self.output

    def forward(self, input):
        """Compute ``self.output`` for ``input`` and return it."""
        return self.updateOutput(input)

    def updateGradInput(self, input, gradOutput):
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        pass

    def backward(self, input, gradOutput, scale=1):
        """Compute ``self.gradInput`` and accumulate ``scale`` times the parameter
        gradients; return ``self.gradInput``."""
        self.updateGradInput(input, gradOutput)
        self.accGradParameters(input, gradOutput, scale)
        return self.gradInput

    def backwardUpdate(self, input, gradOutput, lr):
        """``backward`` followed by ``updateParameters(lr)`` on this call's gradient."""
        self.zeroGradParameters()
        self.backward(input, gradOutput)
        self.updateParameters(lr)
        return self.gradInput

    # -- parameters ---------------------------------------------------------------------

    def parameters(self):
        """``(weights, gradWeights)``: lists of this module's parameters and their
        gradient buffers, or ``None`` when it has none."""
        names = [("weight", "gradWeight"), ("bias", "gradBias")]
        params = [getattr(self, p) for p, _ in names if getattr(self, p, None) is not None]
        grads = [getattr(self, g) for p, g in names if getattr(self, p, None) is not None]
        return (params, grads) if params else None

    def zeroGradParameters(self):
        found = self.parameters()
        if found is not None:
            for grad in found[1]:
                grad.zero_()

    def updateParameters(self, learningRate):
        """``param -= learningRate * gradParam`` for every parameter."""
        found = self.parameters()
        if found is not None:
            for param, grad in zip(*found):
                param.add_(grad, alpha=-learningRate)

    def flattenParameters(self):
        """Move every parameter (and every gradient buffer) into one contiguous tensor and
        make the modules' tensors views of it; return ``(flatParams, flatGradParams)``.

        Optimizers of :mod:`torch.legacy.optim` work on these flat vectors.
        """
        found = self.parameters()
        if found is None:
            return torch.empty(0), torch.empty(0)
        return _flatten(found[0]), _flatten(found[1])

    def getParameters(self):
        """Lua Torch's name of :meth:`flattenParameters`."""
        return self.flattenParameters()

    # -- modes, types, state ------------------------------------------------------------

    def training(self):
        self.train = True

    def evaluate(self):
        self.train = False

    def reset(self, stdv=None):
        pass

    type = _HoldsTensors.type  # listed in the class's API page

    def clearState(self):
        """Drop the buffers kept between calls (``output``, ``gradInput``, ...), e.g.
        before saving the module."""
        self.output = self.output.new_empty(0)
        self.gradInput = self.gradInput.new_empty(0) if torch.is_tensor(self.gradInput) else []
        for name in getattr(self, "_buffers_to_clear", ()):
            if hasattr(self, name):
                setattr(self, name, None)
        return self

    # -- traversal ----------------------------------------------------------------------

    def apply(self, fn):
        fn(self)
        for child in getattr(self, "modules", []):
            child.apply(fn)
        return self

    def listModules(self):
        found = [self]
        for child in getattr(self, "modules", []):
            found += child.listModules()
        return found

    def findModules(self, typename):
        name = typename.split(".")[-1]
        return [m for m in self.listModules() if type(m).__name__ == name]

    # -- helpers for subclasses ---------------------------------------------------------

    def _uniform_(self, stdv, *tensors):
        for tensor in tensors:
            if tensor is not None:
                tensor.uniform_(-stdv, stdv)

    def _reset_uniform(self, stdv, fan_in, *tensors):
        """Lua Torch's default ``reset``: ``tensors`` uniform in ``[-stdv, stdv]``, ``stdv``
        defaulting to ``1 / sqrt(fan_in)``."""
        self._uniform_(stdv if stdv is not None else 1.0 / math.sqrt(fan_in), *tensors)


def _flatten(tensors):
    """One contiguous tensor holding ``tensors``' values; each tensor becomes a view of it.
    A tensor listed twice (a shared parameter) gets one slot."""
    unique = list({id(t): t for t in tensors}.values())
    total = sum(t.numel() for t in unique)
    flat = torch.empty(total, dtype=unique[0].dtype)
    storage = flat.storage()
    offset = 0
    for tensor in unique:
        n = tensor.numel()
        flat.narrow(0, offset, n).copy_(tensor.reshape(-1))
        tensor.set_(storage, offset, tensor.size(), _contiguous_strides(tensor.size()))
        offset += n
    return flat


def _contiguous_strides(size):
    strides, step = [], 1
    for extent in reversed(size):
        strides.append(step)
        step *= max(extent, 1)
    return tuple(reversed(strides))
