"""Transformer layers: ``TransformerEncoderLayer``, ``TransformerDecoderLayer``, their
stacks ``TransformerEncoder``/``TransformerDecoder``, and ``Transformer``."""

from __future__ import annotations

import copy
import warnings

import torch

from .. import functional as F  # noqa: N812
from .. import init
from .activation import MultiheadAttention
from .container import ModuleList
from .dropout import Dropout
from .linear import Linear
from .module import Module
from .normalization import LayerNorm

__all__ = [
    "Transformer",
    "TransformerEncoder",
    "TransformerDecoder",
    "TransformerEncoderLayer",
    "TransformerDecoderLayer",
]


def _activation(activation):
    if isinstance(activation, str):
        if activation == "relu":
            return F.relu
        if activation == "gelu":
            return F.gelu
        raise RuntimeError(f"activation should be relu/gelu, not {activation}")
    return activation


def _why_no_fast_path(layer) -> str:
    """Why PyTorch's fused inference path (nested tensors) would not apply; this project
    has no such path, but keeps the warning that tells users how to enable it there."""
    if not isinstance(layer, TransformerEncoderLayer):
        return f"{type(layer).__name__} was not TransformerEncoderLayer"
    if layer.norm_first:
        return "encoder_layer.norm_first was True"
    if not layer.self_attn.batch_first:
        return (
            "encoder_layer.self_attn.batch_first was not True"
            "(use batch_first for better inference performance)"
        )
    if not layer.self_attn._qkv_same_embed_dim:
        return "encoder_layer.self_attn._qkv_same_embed_dim was not True"
    if layer.self_attn.in_proj_bias is None:
        return "encoder_layer.self_attn was passed bias=False"
    if layer.activation not in (F.relu, F.gelu):
        return "encoder_layer.activation_relu_or_gelu was not True"
    if layer.self_attn.num_heads % 2 == 1:
        return "num_head is odd"
    return ""


def _clones(module: Module, n: int) -> ModuleList:
    return ModuleList([copy.deepcopy(module) for _ in range(n)])


class _TransformerLayer(Module):
    """What the encoder and decoder layers share: their arguments, their submodules
    (in PyTorch's order, which state_dict keys follow) and the self-attention block.
    ``_blocks`` counts the residual blocks (self-attention, [cross-attention,]
    feed-forward), each with its norm and dropout."""

    _blocks = 2

    def __init__(
        self,
        d_model: int,
        nhead: int,
        dim_feedforward: int = 2048,
        dropout: float = 0.1,
        activation=F.relu,
        layer_norm_eps: float = 1e-5,
        batch_first: bool = False,
        norm_first: bool = False,
        bias: bool = True,
        device=None,
        dtype=None,
    ) -> None:
        super().__init__()
        for name in ("self_attn", "multihead_attn")[: self._blocks - 1]:
            attention = MultiheadAttention(
                d_model, nhead, dropout=dropout, bias=bias, batch_first=batch_first, dtype=dtype
            )
            setattr(self, name, attention)
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, dtype=dtype)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, dtype=dtype)
        self.norm_first = norm_first
        for k in range(1, self._blocks + 1):
            setattr(
                self, f"norm{k}", LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
            )
        for k in range(1, self._blocks + 1):
            setattr(self, f"dropout{k}", Dropout(dropout))
        self.activation = _activation(activation)

    def _sa_block(self, x, attn_mask, key_padding_mask, is_causal):
        x = self.self_attn(
            x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
            need_weights=False, is_causal=is_causal,
        )[0]  # fmt: skip
        return self.dropout1(x)


class TransformerEncoderLayer(_TransformerLayer):
    """Self-attention then a feed-forward block, each with a residual connection and
    layer normalisation (after the block, or before it with ``norm_first``).

    Args:
        d_model (int): the model dimension.
        nhead (int): attention heads.
        dim_feedforward (int): hidden size of the feed-forward block. Default: 2048.
        dropout (float): Default: 0.1.
        activation (str or callable): ``'relu'``, ``'gelu'`` or a callable. Default: relu.
        layer_norm_eps (float): Default: 1e-5.
        batch_first (bool): inputs are (N, S, E). Default: ``False``.
        norm_first (bool): normalise before each block. Default: ``False``.
        bias (bool): biases in the linear layers and norms. Default: ``True``.

    Examples::

        >>> layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16)
        >>> layer(torch.randn(5, 3, 8)).shape
        torch.Size([5, 3, 8])
    """

    def forward(self, src, src_mask=None, src_key_padding_mask=None, is_causal: bool = False):
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask, is_causal)
            return x + self._ff_block(self.norm2(x))
        x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask, is_causal))
        return self.norm2(x + self._ff_block(x))

    def _ff_block(self, x):
        return self.dropout2(self.linear2(self.dropout(self.activation(self.linear1(x)))))


class TransformerDecoderLayer(_TransformerLayer):
    """Self-attention, attention over the encoder's ``memory``, and a feed-forward
    block, each with a residual connection and layer normalisation.

    Args:
        d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
            batch_first, norm_first, bias: as for :class:`TransformerEncoderLayer`.

    Examples::

        >>> layer = nn.TransformerDecoderLayer(d_model=8, nhead=2, dim_feedforward=16)
        >>> layer(torch.randn(4, 3, 8), torch.randn(6, 3, 8)).shape
        torch.Size([4, 3, 8])
    """

    _blocks = 3

    def forward(
        self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
        memory_key_padding_mask=None, tgt_is_causal: bool = False, memory_is_causal: bool = False,
    ):  # fmt: skip
        x = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask, tgt_is_causal)
            x = x + self._mha_block(
                self.norm2(x), memory, memory_mask, memory_key_padding_mask, memory_is_causal
            )
            return x + self._ff_block(self.norm3(x))
        x = self.norm1(x + self._sa_block(x, tgt_mask, tgt_key_padding_mask, tgt_is_causal))
        x = self.norm2(
            x + self._mha_block(x, memory, memory_mask, memory_key_padding_mask, memory_is_causal)
        )
        return self.norm3(x + self._ff_block(x))

    def _mha_block(self, x, memory, attn_mask, key_padding_mask, is_causal):
        x = self.multihead_attn(
            x, memory, memory, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
            is_causal=is_causal, need_weights=False,
        )[0]  # fmt: skip
        return self.dropout2(x)

    def _ff_block(self, x):
        return self.dropout3(self.linear2(self.dropout(self.activation(self.linear1(x)))))


class TransformerEncoder(Module):
    """A stack of ``num_layers`` copies of an encoder layer, then an optional norm.

    Args:
        encoder_layer (TransformerEncoderLayer): the layer to copy.
        num_layers (int): how many copies.
        norm (Module, optional): applied to the output.

    Examples::

        >>> layer = nn.TransformerEncoderLayer(8, 2, 16, batch_first=True)
        >>> nn.TransformerEncoder(layer, 2)(torch.randn(3, 5, 8)).shape
        torch.Size([3, 5, 8])
    """

    def __init__(
        self,
        encoder_layer,
        num_layers: int,
        norm=None,
        enable_nested_tensor: bool = True,
        mask_check: bool = True,
    ) -> None:  # noqa: E501
        super().__init__()
        self.layers = _clones(encoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm
        self.enable_nested_tensor = enable_nested_tensor
        self.use_nested_tensor = enable_nested_tensor
        self.mask_check = mask_check
        why_not = _why_no_fast_path(encoder_layer)
        if enable_nested_tensor and why_not:
            warnings.warn(
                "enable_nested_tensor is True, but self.use_nested_tensor is False because "
                f"{why_not}",
                stacklevel=2,
            )
            self.use_nested_tensor = False

    def forward(self, src, mask=None, src_key_padding_mask=None, is_causal=None):
        output = src
        for layer in self.layers:
            output = layer(
                output, src_mask=mask, src_key_padding_mask=src_key_padding_mask,
                is_causal=bool(is_causal),
            )  # fmt: skip
        return output if self.norm is None else self.norm(output)


class TransformerDecoder(Module):
    """A stack of ``num_layers`` copies of a decoder layer, then an optional norm.

    Examples::

        >>> layer = nn.TransformerDecoderLayer(8, 2, 16)
        >>> nn.TransformerDecoder(layer, 2)(torch.randn(4, 3, 8), torch.randn(6, 3, 8)).shape
        torch.Size([4, 3, 8])
    """

    def __init__(self, decoder_layer, num_layers: int, norm=None) -> None:
        super().__init__()
        self.layers = _clones(decoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def forward(
        self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
        memory_key_padding_mask=None, tgt_is_causal=None, memory_is_causal: bool = False,
    ):  # fmt: skip
        output = tgt
        for layer in self.layers:
            output = layer(
                output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                tgt_key_padding_mask=tgt_key_padding_mask,
                memory_key_padding_mask=memory_key_padding_mask,
                tgt_is_causal=bool(tgt_is_causal), memory_is_causal=memory_is_causal,
            )  # fmt: skip
        return output if self.norm is None else self.norm(output)


class Transformer(Module):
    """The encoder-decoder transformer of "Attention Is All You Need".

    Args:
        d_model (int): Default: 512. nhead (int): Default: 8.
        num_encoder_layers (int): Default: 6. num_decoder_layers (int): Default: 6.
        dim_feedforward (int): Default: 2048. dropout (float): Default: 0.1.
        activation (str or callable): Default: relu.
        custom_encoder, custom_decoder (Module, optional): replace the stacks.
        layer_norm_eps (float): Default: 1e-5. batch_first (bool): Default: False.
        norm_first (bool): Default: False. bias (bool): Default: True.

    Examples::

        >>> model = nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1,
        ...                        num_decoder_layers=1, dim_feedforward=16)
        >>> model(torch.randn(6, 2, 8), torch.randn(4, 2, 8)).shape
        torch.Size([4, 2, 8])
    """

    def __init__(
        self,
        d_model: int = 512,
        nhead: int = 8,
        num_encoder_layers: int = 6,
        num_decoder_layers: int = 6,
        dim_feedforward: int = 2048,
        dropout: float = 0.1,
        activation=F.relu,
        custom_encoder=None,
        custom_decoder=None,
        layer_norm_eps: float = 1e-5,
        batch_first: bool = False,
        norm_first: bool = False,
        bias: bool = True,
        device=None,
        dtype=None,
    ) -> None:  # noqa: E501
        super().__init__()
        options = dict(
            dim_feedforward=dim_feedforward, dropout=dropout, activation=activation,
            layer_norm_eps=layer_norm_eps, batch_first=batch_first, norm_first=norm_first,
            bias=bias, dtype=dtype,
        )  # fmt: skip
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            layer = TransformerEncoderLayer(d_model, nhead, **options)
            norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
            self.encoder = TransformerEncoder(layer, num_encoder_layers, norm)
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            layer = TransformerDecoderLayer(d_model, nhead, **options)
            norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
            self.decoder = TransformerDecoder(layer, num_decoder_layers, norm)
        self._reset_parameters()
        self.d_model = d_model
        self.nhead = nhead
        self.batch_first = batch_first

    def _reset_parameters(self) -> None:
        for p in self.parameters():
            if p.dim() > 1:
                init.xavier_uniform_(p)

    def forward(
        self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None,
        src_key_padding_mask=None, tgt_key_padding_mask=None, memory_key_padding_mask=None,
        src_is_causal=None, tgt_is_causal=None, memory_is_causal: bool = False,
    ):  # fmt: skip
        batch_dim = 0 if self.batch_first else 1
        if src.dim() == 3 and src.shape[batch_dim] != tgt.shape[batch_dim]:
            raise RuntimeError("the batch number of src and tgt must be equal")
        if src.shape[-1] != self.d_model or tgt.shape[-1] != self.d_model:
            raise RuntimeError("the feature number of src and tgt must be equal to d_model")
        memory = self.encoder(
            src, mask=src_mask, src_key_padding_mask=src_key_padding_mask,
            is_causal=src_is_causal,
        )  # fmt: skip
        return self.decoder(
            tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
            tgt_key_padding_mask=tgt_key_padding_mask,
            memory_key_padding_mask=memory_key_padding_mask, tgt_is_causal=tgt_is_causal,
            memory_is_causal=memory_is_causal,
        )  # fmt: skip

    @staticmethod
    def generate_square_subsequent_mask(sz: int, device=None, dtype=None):
        """An (sz, sz) float mask: 0 on and below the diagonal, -inf above it.

        Examples::

            >>> nn.Transformer.generate_square_subsequent_mask(3)
            tensor([[0., -inf, -inf],
                    [0., 0., -inf],
                    [0., 0., 0.]])
        """
        upper = torch.ones(sz, sz, dtype=torch.bool).triu(1)
        return torch.where(upper, float("-inf"), 0.0).to(dtype or torch.float32)
