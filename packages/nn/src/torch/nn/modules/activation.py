"""Activation layers: one module per function of ``nn.functional``'s activation
family. Each stores its options and calls the functional form.

Shape (all but GLU, PReLU with per-channel slopes and the softmax family's ``dim``):
input (*) and output (*) of the same shape.
"""

from __future__ import annotations

import torch

from .. import functional as F  # noqa: N812
from .. import init
from ..parameter import Parameter
from .module import Module

__all__ = [
    "Threshold", "ReLU", "RReLU", "Hardtanh", "ReLU6", "Sigmoid", "Hardsigmoid", "Tanh",
    "SiLU", "Mish", "Hardswish", "ELU", "CELU", "SELU", "GLU", "GELU", "Hardshrink",
    "LeakyReLU", "LogSigmoid", "Softplus", "Softshrink", "PReLU", "Softsign", "Tanhshrink",
    "Softmin", "Softmax", "Softmax2d", "LogSoftmax", "MultiheadAttention",
]  # fmt: skip


def _inplace_suffix(inplace: bool) -> str:
    return ", inplace=True" if inplace else ""


class Threshold(Module):
    """``x`` where ``x > threshold``, else ``value``.

    Args:
        threshold (float): the threshold. value (float): the replacement.
        inplace (bool): overwrite the input. Default: ``False``.

    Examples::

        >>> nn.Threshold(0.1, 20)(torch.tensor([0.0, 1.0]))
        tensor([20.,  1.])
    """

    def __init__(self, threshold: float, value: float, inplace: bool = False) -> None:
        super().__init__()
        self.threshold = threshold
        self.value = value
        self.inplace = inplace

    def forward(self, input):
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self) -> str:
        return f"threshold={self.threshold}, value={self.value}{_inplace_suffix(self.inplace)}"


class _InplaceActivation(Module):
    """An activation whose only option is ``inplace``."""

    _functional = None

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return type(self)._functional(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class ReLU(_InplaceActivation):
    """``max(0, x)``.

    Args:
        inplace (bool): overwrite the input. Default: ``False``.

    Examples::

        >>> nn.ReLU()(torch.tensor([-1.0, 2.0]))
        tensor([0., 2.])
        >>> nn.ReLU(inplace=True)
        ReLU(inplace=True)
    """

    _functional = staticmethod(F.relu)


class RReLU(Module):
    """Randomised leaky ReLU: slopes from U(lower, upper) when training, their mean in
    evaluation.

    Args:
        lower (float): Default: 1/8. upper (float): Default: 1/3.
        inplace (bool): Default: ``False``.

    Examples::

        >>> nn.RReLU(0.1, 0.3).eval()(torch.tensor([-1.0, 1.0]))
        tensor([-0.2000,  1.0000])
    """

    def __init__(
        self, lower: float = 1.0 / 8, upper: float = 1.0 / 3, inplace: bool = False
    ) -> None:
        super().__init__()
        self.lower = lower
        self.upper = upper
        self.inplace = inplace

    def forward(self, input):
        return F.rrelu(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self) -> str:
        return f"lower={self.lower}, upper={self.upper}{_inplace_suffix(self.inplace)}"


class Hardtanh(Module):
    """``x`` clamped to ``[min_val, max_val]``.

    Args:
        min_val (float): Default: -1. max_val (float): Default: 1.
        inplace (bool): Default: ``False``.

    Examples::

        >>> nn.Hardtanh(-2, 2)(torch.tensor([-3.0, 0.5, 3.0]))
        tensor([-2.0000,  0.5000,  2.0000])
    """

    def __init__(self, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False) -> None:
        super().__init__()
        if max_val <= min_val:
            raise ValueError("max_val must be greater than min_val")
        self.min_val = min_val
        self.max_val = max_val
        self.inplace = inplace

    def forward(self, input):
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self) -> str:
        return f"min_val={self.min_val}, max_val={self.max_val}{_inplace_suffix(self.inplace)}"


class ReLU6(Hardtanh):
    """``min(max(0, x), 6)``.

    Examples::

        >>> nn.ReLU6()(torch.tensor([-1.0, 7.0]))
        tensor([0., 6.])
    """

    def __init__(self, inplace: bool = False) -> None:
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class Sigmoid(Module):
    """``1 / (1 + exp(-x))``.

    Examples::

        >>> nn.Sigmoid()(torch.tensor([0.0]))
        tensor([0.5000])
    """

    def forward(self, input):
        return torch.sigmoid(input)


class Hardsigmoid(_InplaceActivation):
    """``relu6(x + 3) / 6``.

    Examples::

        >>> nn.Hardsigmoid()(torch.tensor([0.0, 3.0]))
        tensor([0.5000, 1.0000])
    """

    _functional = staticmethod(F.hardsigmoid)

    def extra_repr(self) -> str:
        return ""


class Tanh(Module):
    """Hyperbolic tangent.

    Examples::

        >>> nn.Tanh()(torch.tensor([0.0]))
        tensor([0.])
    """

    def forward(self, input):
        return torch.tanh(input)


class SiLU(_InplaceActivation):
    """``x * sigmoid(x)`` (swish).

    Examples::

        >>> nn.SiLU()(torch.tensor([0.0]))
        tensor([0.])
    """

    _functional = staticmethod(F.silu)


class Mish(_InplaceActivation):
    """``x * tanh(softplus(x))``.

    Examples::

        >>> nn.Mish()(torch.tensor([0.0]))
        tensor([0.])
    """

    _functional = staticmethod(F.mish)


class Hardswish(_InplaceActivation):
    """``x * relu6(x + 3) / 6``.

    Examples::

        >>> nn.Hardswish()(torch.tensor([3.0]))
        tensor([3.])
    """

    _functional = staticmethod(F.hardswish)

    def extra_repr(self) -> str:
        return ""


class ELU(Module):
    """``x`` above 0, ``alpha * (exp(x) - 1)`` below.

    Args:
        alpha (float): Default: 1. inplace (bool): Default: ``False``.

    Examples::

        >>> nn.ELU()(torch.tensor([1.0]))
        tensor([1.])
    """

    def __init__(self, alpha: float = 1.0, inplace: bool = False) -> None:
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input):
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self) -> str:
        return f"alpha={self.alpha}{_inplace_suffix(self.inplace)}"


class CELU(ELU):
    """``x`` above 0, ``alpha * (exp(x / alpha) - 1)`` below.

    Examples::

        >>> nn.CELU(2.0)(torch.tensor([1.0]))
        tensor([1.])
    """

    def forward(self, input):
        return F.celu(input, self.alpha, self.inplace)


class SELU(_InplaceActivation):
    """``scale * elu(x, alpha)`` with the self-normalising constants.

    Examples::

        >>> nn.SELU()(torch.tensor([1.0]))
        tensor([1.0507])
    """

    _functional = staticmethod(F.selu)


class GLU(Module):
    """Gated linear unit: ``a * sigmoid(b)`` for the halves of ``dim``.

    Args:
        dim (int): the dim to split. Default: -1.

    Shape:
        - Input: (*, 2N, *). Output: (*, N, *).

    Examples::

        >>> nn.GLU()(torch.tensor([2.0, 0.0]))
        tensor([1.])
    """

    def __init__(self, dim: int = -1) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.glu(input, self.dim)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class GELU(Module):
    """``x * Phi(x)`` (Gaussian error linear unit).

    Args:
        approximate (str): ``'none'`` or ``'tanh'``. Default: ``'none'``.

    Examples::

        >>> nn.GELU(approximate="tanh")
        GELU(approximate='tanh')
    """

    def __init__(self, approximate: str = "none") -> None:
        super().__init__()
        self.approximate = approximate

    def forward(self, input):
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self) -> str:
        return f"approximate={self.approximate!r}"


class Hardshrink(Module):
    """``x`` where ``|x| > lambd``, else 0.

    Args:
        lambd (float): Default: 0.5.

    Examples::

        >>> nn.Hardshrink()(torch.tensor([0.2, 1.0]))
        tensor([0., 1.])
    """

    def __init__(self, lambd: float = 0.5) -> None:
        super().__init__()
        self.lambd = lambd

    def forward(self, input):
        return F.hardshrink(input, self.lambd)

    def extra_repr(self) -> str:
        return f"{self.lambd}"


class LeakyReLU(Module):
    """``x`` above 0, ``negative_slope * x`` below.

    Args:
        negative_slope (float): Default: 0.01. inplace (bool): Default: ``False``.

    Examples::

        >>> nn.LeakyReLU(0.1)(torch.tensor([-1.0, 1.0]))
        tensor([-0.1000,  1.0000])
    """

    def __init__(self, negative_slope: float = 1e-2, inplace: bool = False) -> None:
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input):
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self) -> str:
        return f"negative_slope={self.negative_slope}{_inplace_suffix(self.inplace)}"


class LogSigmoid(Module):
    """``log(sigmoid(x))``.

    Examples::

        >>> nn.LogSigmoid()(torch.tensor([0.0]))
        tensor([-0.6931])
    """

    def forward(self, input):
        return F.logsigmoid(input)


class Softplus(Module):
    """``log(1 + exp(beta x)) / beta``, linear above ``threshold``.

    Args:
        beta (float): Default: 1. threshold (float): Default: 20.

    Examples::

        >>> nn.Softplus()(torch.tensor([0.0]))
        tensor([0.6931])
    """

    def __init__(self, beta: float = 1.0, threshold: float = 20.0) -> None:
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, input):
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self) -> str:
        return f"beta={self.beta}, threshold={self.threshold}"


class Softshrink(Module):
    """Shrink towards 0 by ``lambd``.

    Args:
        lambd (float): Default: 0.5.

    Examples::

        >>> nn.Softshrink()(torch.tensor([0.2, 1.0]))
        tensor([0.0000, 0.5000])
    """

    def __init__(self, lambd: float = 0.5) -> None:
        super().__init__()
        self.lambd = lambd

    def forward(self, input):
        return F.softshrink(input, self.lambd)

    def extra_repr(self) -> str:
        return str(self.lambd)


class PReLU(Module):
    """Leaky ReLU with a learned slope (one, or one per channel).

    Args:
        num_parameters (int): 1 or the number of channels. Default: 1.
        init (float): the initial slope. Default: 0.25.

    Examples::

        >>> nn.PReLU()(torch.tensor([-4.0, 1.0]))
        tensor([-1.,  1.], grad_fn=<WhereBackward0>)
    """

    def __init__(
        self, num_parameters: int = 1, init: float = 0.25, device=None, dtype=None
    ) -> None:
        self.num_parameters = num_parameters
        super().__init__()
        self.init = init
        self.weight = Parameter(torch.empty(num_parameters, dtype=dtype))
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Set every slope to ``init``."""
        init.constant_(self.weight, self.init)

    def forward(self, input):
        return F.prelu(input, self.weight)

    def extra_repr(self) -> str:
        return f"num_parameters={self.num_parameters}"


class Softsign(Module):
    """``x / (1 + |x|)``.

    Examples::

        >>> nn.Softsign()(torch.tensor([1.0]))
        tensor([0.5000])
    """

    def forward(self, input):
        return F.softsign(input)


class Tanhshrink(Module):
    """``x - tanh(x)``.

    Examples::

        >>> nn.Tanhshrink()(torch.tensor([0.0]))
        tensor([0.])
    """

    def forward(self, input):
        return F.tanhshrink(input)


class _SoftmaxFamily(Module):
    def __init__(self, dim=None) -> None:
        super().__init__()
        self.dim = dim

    def __setstate__(self, state) -> None:
        super().__setstate__(state)
        self.__dict__.setdefault("dim", None)

    def forward(self, input):
        return type(self)._functional(input, self.dim, _stacklevel=5)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class Softmin(_SoftmaxFamily):
    """``softmax(-x)`` along ``dim``.

    Examples::

        >>> nn.Softmin(dim=0)(torch.tensor([0.0, 0.0]))
        tensor([0.5000, 0.5000])
    """

    _functional = staticmethod(F.softmin)


class Softmax(_SoftmaxFamily):
    """``exp(x) / sum(exp(x))`` along ``dim``.

    Args:
        dim (int): the dim whose slices sum to 1.

    Examples::

        >>> nn.Softmax(dim=1)
        Softmax(dim=1)
    """

    _functional = staticmethod(F.softmax)


class LogSoftmax(_SoftmaxFamily):
    """``log(softmax(x))`` along ``dim``.

    Examples::

        >>> nn.LogSoftmax(dim=0)(torch.tensor([0.0, 0.0]))
        tensor([-0.6931, -0.6931])
    """

    _functional = staticmethod(F.log_softmax)


class Softmax2d(Module):
    """Softmax over the channels of (N, C, H, W) or (C, H, W) inputs.

    Examples::

        >>> nn.Softmax2d()(torch.zeros(2, 1, 1))
        tensor([[[0.5000]],
        <BLANKLINE>
                [[0.5000]]])
    """

    def forward(self, input):
        if input.dim() not in (3, 4):
            raise ValueError(
                f"Softmax2d: expected input to be 3D or 4D, got {input.dim()}D instead"
            )
        return F.softmax(input, -3, _stacklevel=5)


class MultiheadAttention(Module):
    """Multi-head attention: ``Concat(head_1, ..., head_h) W_O`` with
    ``head_i = Attention(Q W_Q_i, K W_K_i, V W_V_i)``.

    Args:
        embed_dim (int): model dimension E (split over the heads).
        num_heads (int): number of heads (divides ``embed_dim``).
        dropout (float): dropout on the attention weights. Default: 0.
        bias (bool): biases on the input and output projections. Default: ``True``.
        add_bias_kv (bool): learn a bias row appended to key and value. Default: False.
        add_zero_attn (bool): append a zero row to key and value. Default: False.
        kdim, vdim (int, optional): key/value feature sizes. Default: ``embed_dim``.
        batch_first (bool): inputs are (N, L, E). Default: ``False``.

    Shape:
        - query: (L, N, E); key, value: (S, N, kdim/vdim); unbatched without N.
        - key_padding_mask: (N, S), True (or -inf) where a key is padding.
        - attn_mask: (L, S) or (N * num_heads, L, S), True where attention is blocked.
        - Outputs: (L, N, E) and the weights (N, L, S) averaged over heads.

    Examples::

        >>> attn = nn.MultiheadAttention(8, 2)
        >>> x = torch.randn(5, 3, 8)
        >>> out, weights = attn(x, x, x)
        >>> out.shape, weights.shape
        (torch.Size([5, 3, 8]), torch.Size([3, 5, 5]))
    """

    def __init__(
        self,
        embed_dim: int,
        num_heads: int,
        dropout: float = 0.0,
        bias: bool = True,
        add_bias_kv: bool = False,
        add_zero_attn: bool = False,
        kdim=None,
        vdim=None,
        batch_first: bool = False,
        device=None,
        dtype=None,
    ) -> None:
        from .linear import NonDynamicallyQuantizableLinear

        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(
                f"embed_dim and num_heads must be greater than 0, got embed_dim={embed_dim} "
                f"and num_heads={num_heads} instead"
            )
        super().__init__()
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")
        if self._qkv_same_embed_dim:
            self.in_proj_weight = Parameter(torch.empty((3 * embed_dim, embed_dim), dtype=dtype))
            self.register_parameter("q_proj_weight", None)
            self.register_parameter("k_proj_weight", None)
            self.register_parameter("v_proj_weight", None)
        else:
            self.q_proj_weight = Parameter(torch.empty((embed_dim, embed_dim), dtype=dtype))
            self.k_proj_weight = Parameter(torch.empty((embed_dim, self.kdim), dtype=dtype))
            self.v_proj_weight = Parameter(torch.empty((embed_dim, self.vdim), dtype=dtype))
            self.register_parameter("in_proj_weight", None)
        if bias:
            self.in_proj_bias = Parameter(torch.empty(3 * embed_dim, dtype=dtype))
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = NonDynamicallyQuantizableLinear(
            embed_dim, embed_dim, bias=bias, dtype=dtype
        )
        if add_bias_kv:
            self.bias_k = Parameter(torch.empty((1, 1, embed_dim), dtype=dtype))
            self.bias_v = Parameter(torch.empty((1, 1, embed_dim), dtype=dtype))
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _reset_parameters(self) -> None:
        if self._qkv_same_embed_dim:
            init.xavier_uniform_(self.in_proj_weight)
        else:
            init.xavier_uniform_(self.q_proj_weight)
            init.xavier_uniform_(self.k_proj_weight)
            init.xavier_uniform_(self.v_proj_weight)
        if self.in_proj_bias is not None:
            init.constant_(self.in_proj_bias, 0.0)
            init.constant_(self.out_proj.bias, 0.0)
        if self.bias_k is not None:
            init.xavier_normal_(self.bias_k)
        if self.bias_v is not None:
            init.xavier_normal_(self.bias_v)

    def forward(
        self,
        query,
        key,
        value,
        key_padding_mask=None,
        need_weights: bool = True,
        attn_mask=None,
        average_attn_weights: bool = True,
        is_causal: bool = False,
    ):
        batched = query.dim() == 3
        if self.batch_first and batched:
            if query is key and key is value:  # self-attention: one transposed view, kept
                query = key = value = query.transpose(0, 1)  # as one (one input projection)
            else:
                query, key, value = (x.transpose(0, 1) for x in (query, key, value))
        output, weights = F.multi_head_attention_forward(
            query,
            key,
            value,
            self.embed_dim,
            self.num_heads,
            self.in_proj_weight,
            self.in_proj_bias,
            self.bias_k,
            self.bias_v,
            self.add_zero_attn,
            self.dropout,
            self.out_proj.weight,
            self.out_proj.bias,
            training=self.training,
            key_padding_mask=key_padding_mask,
            need_weights=need_weights,
            attn_mask=attn_mask,
            use_separate_proj_weight=not self._qkv_same_embed_dim,
            q_proj_weight=self.q_proj_weight,
            k_proj_weight=self.k_proj_weight,
            v_proj_weight=self.v_proj_weight,
            average_attn_weights=average_attn_weights,
            is_causal=is_causal,
        )
        if self.batch_first and batched:
            output = output.transpose(0, 1)
        return output, weights


# Deprecated (non-full) backward hooks see PyTorch's last autograd node of a forward; for
# these activations it is one node on the module input, while ours may be a composite, so
# the hooks are served with the gradient w.r.t. the input (see _hooks.NonFullBackwardHook).
for _activation in (
    Threshold, ReLU, Hardtanh, ReLU6, Sigmoid, Hardsigmoid, Tanh, SiLU, Mish, Hardswish, ELU,
    CELU, SELU, GLU, GELU, Hardshrink, LeakyReLU, LogSigmoid, Softplus, Softshrink, Softmax,
    LogSoftmax,
):  # fmt: skip
    _activation._non_full_hook_style = "input"
del _activation
