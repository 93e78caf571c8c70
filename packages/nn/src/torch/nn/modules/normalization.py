"""Normalisation layers: batch, instance, layer, group, RMS and local response
normalisation."""

from __future__ import annotations

import numbers
import sys

import torch

from .. import functional as F  # noqa: N812
from .. import init
from ..functional.normalization import _cross_map_lrn2d
from ..parameter import Parameter, UninitializedBuffer, UninitializedParameter
from .lazy import LazyModuleMixin
from .module import Module

__all__ = [
    "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "InstanceNorm1d", "InstanceNorm2d",
    "InstanceNorm3d", "LayerNorm", "GroupNorm", "RMSNorm", "LocalResponseNorm",
    "LazyBatchNorm1d", "LazyBatchNorm2d", "LazyBatchNorm3d", "LazyInstanceNorm1d",
    "LazyInstanceNorm2d", "LazyInstanceNorm3d", "SyncBatchNorm", "CrossMapLRN2d",
]  # fmt: skip


def _trailing_shape(normalized_shape) -> tuple:
    """``normalized_shape`` of LayerNorm and RMSNorm as a tuple (an int is one dim)."""
    if isinstance(normalized_shape, numbers.Integral):
        return (normalized_shape,)
    return tuple(normalized_shape)


def _affine_parameters(module, size, affine: bool, bias: bool, dtype) -> None:
    if affine:
        module.weight = Parameter(torch.empty(size, dtype=dtype))
    else:
        module.register_parameter("weight", None)
    if affine and bias:
        module.bias = Parameter(torch.empty(size, dtype=dtype))
    else:
        module.register_parameter("bias", None)


def _reset_affine(module) -> None:
    if module.weight is not None:
        init.ones_(module.weight)
    if module.bias is not None:
        init.zeros_(module.bias)


class _NormBase(Module):
    """Affine parameters and running statistics shared by batch and instance norm."""

    _version = 2

    def __init__(
        self,
        num_features: int,
        eps: float = 1e-5,
        momentum=0.1,
        affine: bool = True,
        track_running_stats: bool = True,
        device=None,
        dtype=None,
        *,
        bias: bool = True,
    ) -> None:
        super().__init__()
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        _affine_parameters(self, num_features, affine, bias, dtype)
        if track_running_stats:
            self.register_buffer("running_mean", torch.zeros(num_features, dtype=dtype))
            self.register_buffer("running_var", torch.ones(num_features, dtype=dtype))
            self.register_buffer("num_batches_tracked", torch.tensor(0, dtype=torch.int64))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)
        self.reset_parameters()

    def reset_running_stats(self) -> None:
        """Running mean 0, running variance 1, no batches tracked."""
        if self.track_running_stats:
            init.zeros_(self.running_mean)
            init.ones_(self.running_var)
            init.zeros_(self.num_batches_tracked)

    def reset_parameters(self) -> None:
        """Reset the running statistics; weight 1, bias 0."""
        self.reset_running_stats()
        _reset_affine(self)

    def _check_input_dim(self, input) -> None:
        raise NotImplementedError

    def extra_repr(self) -> str:
        return (
            f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
            f"affine={self.affine}, bias={self.bias is not None}, "
            f"track_running_stats={self.track_running_stats}"
        )

    def _load_from_state_dict(
        self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs
    ) -> None:
        version = local_metadata.get("version", None)
        key = prefix + "num_batches_tracked"
        if (version is None or version < 2) and self.track_running_stats and key not in state_dict:
            # checkpoints older than the counter load with it at 0
            state_dict[key] = torch.tensor(0, dtype=torch.int64)
        super()._load_from_state_dict(
            state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs
        )


class _BatchNorm(_NormBase):
    def forward(self, input):
        self._check_input_dim(input)
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            self.num_batches_tracked.add_(1)
            if self.momentum is None:  # cumulative moving average
                factor = 1.0 / float(self.num_batches_tracked.item())
        use_batch_stats = self.training or (self.running_mean is None and self.running_var is None)
        track = not self.training or self.track_running_stats
        return F.batch_norm(
            input,
            self.running_mean if track else None,
            self.running_var if track else None,
            self.weight,
            self.bias,
            use_batch_stats,
            factor,
            self.eps,
        )


def _batch_norm_class(nd, allowed, expected):
    class BatchNorm(_BatchNorm):
        def _check_input_dim(self, input) -> None:
            if input.dim() not in allowed:
                raise ValueError(f"expected {expected} input (got {input.dim()}D input)")

    BatchNorm.__name__ = BatchNorm.__qualname__ = f"BatchNorm{nd}d"
    BatchNorm.__module__ = __name__
    BatchNorm.__doc__ = f"""Batch normalisation over a {expected} input: each channel is
    normalised with the batch's mean and (biased) variance when training, with the running
    estimates in evaluation, then scaled and shifted.

    Args:
        num_features (int): the channels C.
        eps (float): added to the variance. Default: 1e-5.
        momentum (float or None): weight of the new batch in the running statistics;
            None for a cumulative average. Default: 0.1.
        affine (bool): learn weight and bias. Default: ``True``.
        track_running_stats (bool): keep running statistics (else use batch
            statistics in evaluation too). Default: ``True``.

    Shape:
        - Input: {expected} with channels in dim 1. Output: same shape.

    Examples::

        >>> m = nn.BatchNorm{nd}d(100)
        >>> m.eps, m.momentum, m.affine, m.track_running_stats
        (1e-05, 0.1, True, True)
    """
    return BatchNorm


BatchNorm1d = _batch_norm_class(1, (2, 3), "2D or 3D")
BatchNorm2d = _batch_norm_class(2, (4,), "4D")
BatchNorm3d = _batch_norm_class(3, (5,), "5D")


class _InstanceNorm(_NormBase):
    def __init__(
        self,
        num_features: int,
        eps: float = 1e-5,
        momentum: float = 0.1,
        affine: bool = False,
        track_running_stats: bool = False,
        device=None,
        dtype=None,
        *,
        bias: bool = True,
    ) -> None:
        super().__init__(
            num_features, eps, momentum, affine, track_running_stats, device, dtype, bias=bias
        )

    def _load_from_state_dict(
        self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs
    ) -> None:
        version = local_metadata.get("version", None)
        if version is None and not self.track_running_stats:
            for name in ("running_mean", "running_var"):
                state_dict.pop(prefix + name, None)
        super()._load_from_state_dict(
            state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs
        )

    def forward(self, input):
        nd = self._spatial
        if input.dim() not in (nd + 1, nd + 2):
            raise ValueError(f"expected {nd + 1}D or {nd + 2}D input (got {input.dim()}D input)")
        unbatched = input.dim() == nd + 1
        if unbatched:
            input = input.unsqueeze(0)
        channels = input.shape[1]
        if channels != self.num_features and self.affine:
            raise ValueError(
                f"expected input's size at dim={1 - unbatched} to match num_features "
                f"({self.num_features}), but got: {channels}."
            )
        out = F.instance_norm(
            input, self.running_mean, self.running_var, self.weight, self.bias,
            self.training or not self.track_running_stats,
            self.momentum if self.momentum is not None else 0.0, self.eps,
        )  # fmt: skip
        return out.squeeze(0) if unbatched else out


def _instance_norm_class(nd):
    class InstanceNorm(_InstanceNorm):
        _spatial = nd

    InstanceNorm.__name__ = InstanceNorm.__qualname__ = f"InstanceNorm{nd}d"
    InstanceNorm.__module__ = __name__
    InstanceNorm.__doc__ = f"""Instance normalisation: each channel of each sample is
    normalised over its {nd} spatial dim(s).

    Args:
        num_features (int): the channels C.
        eps (float): Default: 1e-5. momentum (float): Default: 0.1.
        affine (bool): learn weight and bias. Default: ``False``.
        track_running_stats (bool): Default: ``False``.

    Shape:
        - Input: (N, C, *spatial) or (C, *spatial). Output: same shape.

    Examples::

        >>> m = nn.InstanceNorm{nd}d(3)
        >>> m.affine, m.track_running_stats
        (False, False)
    """
    return InstanceNorm


InstanceNorm1d = _instance_norm_class(1)
InstanceNorm2d = _instance_norm_class(2)
InstanceNorm3d = _instance_norm_class(3)


class LayerNorm(Module):
    """Layer normalisation over the last dims given by ``normalized_shape``.

    Args:
        normalized_shape (int or tuple): the trailing shape to normalise over.
        eps (float): Default: 1e-5.
        elementwise_affine (bool): learn weight (and bias). Default: ``True``.
        bias (bool): learn a bias too. Default: ``True``.

    Shape:
        - Input: (N, *). Output: same shape.

    Examples::

        >>> nn.LayerNorm(10)
        LayerNorm((10,), eps=1e-05, elementwise_affine=True, bias=True)
        >>> nn.LayerNorm(2)(torch.tensor([[1.0, 3.0]]))
        tensor([[-1.0000,  1.0000]], grad_fn=<NativeLayerNormBackward0>)
    """

    def __init__(
        self,
        normalized_shape,
        eps: float = 1e-5,
        elementwise_affine: bool = True,
        bias: bool = True,
        device=None,
        dtype=None,
    ) -> None:
        super().__init__()
        self.normalized_shape = _trailing_shape(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        _affine_parameters(self, self.normalized_shape, elementwise_affine, bias, dtype)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Weight 1, bias 0."""
        _reset_affine(self)

    def forward(self, input):
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (
            f"{self.normalized_shape}, eps={self.eps}, "
            f"elementwise_affine={self.elementwise_affine}, bias={self.bias is not None}"
        )


class GroupNorm(Module):
    """Group normalisation: the channels are split into ``num_groups`` groups, each
    normalised over its channels and spatial dims.

    Args:
        num_groups (int): number of groups (divides ``num_channels``).
        num_channels (int): the channels C.
        eps (float): Default: 1e-5. affine (bool): Default: ``True``.

    Shape:
        - Input: (N, C, *). Output: same shape.

    Examples::

        >>> nn.GroupNorm(3, 6)
        GroupNorm(3, 6, eps=1e-05, affine=True, bias=True)
    """

    def __init__(
        self,
        num_groups: int,
        num_channels: int,
        eps: float = 1e-5,
        affine: bool = True,
        device=None,
        dtype=None,
        *,
        bias: bool = True,
    ) -> None:
        super().__init__()
        if num_channels % num_groups != 0:
            raise ValueError(
                f"num_channels ({num_channels}) must be divisible by num_groups ({num_groups})"
            )
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = eps
        self.affine = affine
        _affine_parameters(self, num_channels, affine, bias, dtype)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Weight 1, bias 0."""
        _reset_affine(self)

    def forward(self, input):
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (
            f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}, "
            f"bias={self.bias is not None}"
        )


class RMSNorm(Module):
    """Root-mean-square normalisation over the last dims given by ``normalized_shape``.

    Args:
        normalized_shape (int or tuple): the trailing shape.
        eps (float, optional): Default: the dtype's machine epsilon.
        elementwise_affine (bool): learn a weight. Default: ``True``.

    Examples::

        >>> nn.RMSNorm(4)
        RMSNorm((4,), eps=None, elementwise_affine=True)
    """

    def __init__(
        self, normalized_shape, eps=None, elementwise_affine: bool = True, device=None, dtype=None
    ) -> None:
        super().__init__()
        self.normalized_shape = _trailing_shape(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(torch.empty(self.normalized_shape, dtype=dtype))
        else:
            self.register_parameter("weight", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Weight 1."""
        if self.elementwise_affine:
            init.ones_(self.weight)

    def forward(self, input):
        return F.rms_norm(input, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self) -> str:
        return (
            f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"
        )


class _ResponseNorm(Module):
    """The arguments and repr of the two local response norms."""

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0) -> None:
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k

    def extra_repr(self) -> str:
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"


class LocalResponseNorm(_ResponseNorm):
    """Normalise each channel by the energy of its ``size`` neighbouring channels.

    Args:
        size (int): neighbouring channels. alpha (float): Default: 1e-4.
        beta (float): Default: 0.75. k (float): Default: 1.

    Examples::

        >>> nn.LocalResponseNorm(2)
        LocalResponseNorm(2, alpha=0.0001, beta=0.75, k=1.0)
    """

    def forward(self, input):
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k)


class _LazyNormBase(LazyModuleMixin):
    """A norm layer whose ``num_features`` is read from the first input (dim 1)."""

    def __init__(
        self, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None, dtype=None
    ) -> None:  # noqa: E501
        super().__init__(0, eps, momentum, affine, track_running_stats, device, dtype)
        if self.affine:
            self.weight = UninitializedParameter()
            self.bias = UninitializedParameter()
        if self.track_running_stats:
            self.running_mean = UninitializedBuffer()
            self.running_var = UninitializedBuffer()

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.num_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input) -> None:
        if not self.has_uninitialized_params():
            return
        self.num_features = input.shape[1] if input.dim() > 1 else input.shape[0]
        with torch.no_grad():
            for name in ("weight", "bias", "running_mean", "running_var"):
                value = getattr(self, name)
                if isinstance(value, (UninitializedParameter, UninitializedBuffer)):
                    value.materialize((self.num_features,))
            self.reset_parameters()


def _lazy_norm(base, in_features_doc: str):
    class LazyNorm(_LazyNormBase, base):
        cls_to_become = base

    LazyNorm.__name__ = LazyNorm.__qualname__ = "Lazy" + base.__name__
    LazyNorm.__module__ = __name__
    LazyNorm.__doc__ = f"""A :class:`{base.__name__}` whose ``num_features`` is read from
    the first input ({in_features_doc}); the other arguments are those of
    :class:`{base.__name__}`."""
    return LazyNorm


LazyBatchNorm1d = _lazy_norm(BatchNorm1d, "dim 1")
LazyBatchNorm2d = _lazy_norm(BatchNorm2d, "dim 1")
LazyBatchNorm3d = _lazy_norm(BatchNorm3d, "dim 1")
LazyInstanceNorm1d = _lazy_norm(InstanceNorm1d, "the channel dim")
LazyInstanceNorm2d = _lazy_norm(InstanceNorm2d, "the channel dim")
LazyInstanceNorm3d = _lazy_norm(InstanceNorm3d, "the channel dim")


class SyncBatchNorm(_BatchNorm):
    """Batch normalisation whose statistics are shared across the processes of a
    distributed group: while training in a torch.distributed group of several ranks
    (torch-distributed), each channel is normalised with the mean and variance of all
    ranks' batches together, and the gradient flows through them to every rank. Alone
    (no group, one rank, or evaluation) it normalises exactly like :class:`BatchNorm2d`
    over any input of 2 or more dims.

    Args:
        num_features (int), eps, momentum, affine, track_running_stats: as for
            :class:`BatchNorm1d`.
        process_group (optional): the group to synchronise over.

    Examples::

        >>> nn.SyncBatchNorm(3)(torch.randn(4, 3, 2, 2)).shape
        torch.Size([4, 3, 2, 2])
    """

    def __init__(
        self,
        num_features: int,
        eps: float = 1e-5,
        momentum=0.1,
        affine: bool = True,
        track_running_stats: bool = True,
        process_group=None,
        device=None,
        dtype=None,
    ) -> None:  # noqa: E501
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device, dtype)
        self.process_group = process_group

    def _check_input_dim(self, input) -> None:
        if input.dim() < 2:
            raise ValueError(f"expected at least 2D input (got {input.dim()}D input)")

    def forward(self, input):
        group = _synced_group(self.process_group) if self.training else None
        if group is None:
            return super().forward(input)
        self._check_input_dim(input)
        factor = 0.0 if self.momentum is None else self.momentum
        if self.track_running_stats and self.num_batches_tracked is not None:
            self.num_batches_tracked.add_(1)
            if self.momentum is None:
                factor = 1.0 / float(self.num_batches_tracked.item())
        return _sync_batch_norm(self, input, group, factor)

    @classmethod
    def convert_sync_batchnorm(cls, module, process_group=None):
        """Replace every ``BatchNorm*d`` in ``module`` by a SyncBatchNorm holding the same
        parameters and buffers; returns the converted module."""
        converted = module
        if isinstance(module, _BatchNorm) and not isinstance(module, SyncBatchNorm):
            converted = cls(
                module.num_features, module.eps, module.momentum, module.affine,
                module.track_running_stats, process_group,
            )  # fmt: skip
            _share_state(converted, module)
        for name, child in module.named_children():
            converted.add_module(name, cls.convert_sync_batchnorm(child, process_group))
        return converted


def _share_state(converted, module) -> None:
    """Give the converted layer ``module``'s parameters and buffers (the same tensors)
    and its training mode."""
    if module.affine:
        with torch.no_grad():
            converted.weight = module.weight
            converted.bias = module.bias
    for name in ("running_mean", "running_var", "num_batches_tracked", "training"):
        setattr(converted, name, getattr(module, name))


def _synced_group(process_group):
    """The group whose statistics a training SyncBatchNorm shares: None unless
    torch.distributed (torch-distributed) is in use with a group of several ranks."""
    dist = sys.modules.get("torch.distributed")  # never imported: no group can exist
    if dist is None or not dist.is_initialized():
        return None
    group = dist.group.WORLD if process_group is None else process_group
    return group if dist.get_world_size(group) > 1 else None


def _sync_batch_norm(module, input, group, factor: float):
    """Batch norm with the mean and variance of the whole group's batch: the per-channel
    sums, sums of squares and counts are all-reduced (differentiably, so the gradient
    also flows through the other ranks' statistics)."""
    from torch.distributed.nn.functional import all_reduce

    dims = [0] + list(range(2, input.dim()))
    count = torch.full((1,), input.numel() / input.shape[1], dtype=input.dtype)
    stats = torch.cat([input.sum(dims), (input * input).sum(dims), count])
    stats = all_reduce(stats, group=group)
    channels = input.shape[1]
    total = stats[-1]
    mean = stats[:channels] / total
    var = stats[channels : 2 * channels] / total - mean * mean
    if module.track_running_stats and module.running_mean is not None:
        with torch.no_grad():
            unbiased = var.detach() * (total / (total - 1))
            module.running_mean.mul_(1 - factor).add_(mean.detach() * factor)
            module.running_var.mul_(1 - factor).add_(unbiased * factor)
    shape = [1, channels] + [1] * (input.dim() - 2)
    out = (input - mean.view(shape)) / torch.sqrt(var.view(shape) + module.eps)
    if module.weight is not None:
        out = out * module.weight.view(shape) + module.bias.view(shape)
    return out


class CrossMapLRN2d(_ResponseNorm):
    """Local response normalisation across channels of 4-D inputs (the Lua-Torch form):
    ``x / (k + alpha / size * sum of squares over size neighbouring channels) ** beta``.

    Its gradient is the exact derivative of this forward; PyTorch's legacy backward
    differs from that slightly.

    Examples::

        >>> nn.CrossMapLRN2d(3)
        CrossMapLRN2d(3, alpha=0.0001, beta=0.75, k=1)
    """

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1) -> None:
        super().__init__(size, alpha, beta, k)  # k an int by default, as PyTorch's repr shows

    def forward(self, input):
        if input.dim() != 4:
            raise ValueError(f"CrossMapLRN2d: Expected input to be 4D, got {input.dim()}D instead.")
        return _cross_map_lrn2d(input, self.size, self.alpha, self.beta, self.k)
