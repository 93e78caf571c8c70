"""Native kernels of the Transformer fusion groups (:mod:`torch.jit._passes.transformer`):
attention (``softmax(q * scale @ k^T) @ v``) and layer norm (with the residual add
feeding it), as generated C++ compiled once and cached like the elementwise kernels.

Both computations are a handful of small NumPy passes each in core (layer norm is nine
ops; attention on a batch of 16 sequences is 64 tiny matrix products, a softmax and the
transposes and copies between them), so at inference sizes the time goes to per-op
overhead and temporaries rather than arithmetic. One loop per row keeps everything in
cache. The kernels read their inputs through strides (the transposed and sliced views
of multi-head attention need no copy); attention accumulates in the tensors' type, layer
norm in double, so results agree with the ops to float rounding (not bit for bit: the
summation order differs).
"""

from __future__ import annotations

import ctypes

import torch

from . import _ir
from ._kernels import _SCALARS, WARMUP_CALLS, FusedKernel, _math_header, compile_cpp

__all__ = ["AttentionKernel", "LayerNormKernel", "kernel_from_spec"]

_ATTENTION_SOURCE = """#include <math.h>
#include <cstdint>
#include <vector>
{header}
typedef {scalar} T;
constexpr int64_t D = {D}, E = {E}, W = 16;  // head sizes are fixed by the weights

// R query rows at a time (independent accumulators keep the FMA units busy): scores
// against the transposed keys kt (D rows of SP >= S keys, zero padded), softmax, and the
// probability-weighted sum of the packed values vb (S rows of E).
template <int R>
static inline void rows(const T* const* qi, int64_t qs2, T scale, const T* __restrict kt,
                        const T* __restrict vb, int64_t S, int64_t SP, T* __restrict p,
                        T* const* oi, int64_t os2) {{
    T qrow[R][D];
    for (int r = 0; r < R; ++r)
        for (int64_t d = 0; d < D; ++d) qrow[r][d] = {scaled};
    for (int64_t j0 = 0; j0 < SP; j0 += W) {{
        T acc[R][W] = {{}};
        for (int64_t d = 0; d < D; ++d) {{
            const T* __restrict kd = kt + d * SP + j0;
            for (int r = 0; r < R; ++r)
                for (int64_t j = 0; j < W; ++j) acc[r][j] += qrow[r][d] * kd[j];
        }}
        for (int r = 0; r < R; ++r)
            for (int64_t j = 0; j < W; ++j) p[r * SP + j0 + j] = acc[r][j];
    }}
    for (int r = 0; r < R; ++r) {{
        T* __restrict pr = p + r * SP;
        T best = pr[0];
        for (int64_t j = 1; j < S; ++j) best = (pr[j] > best || pr[j] != pr[j]) ? pr[j] : best;
        for (int64_t j = 0; j < S; ++j) pr[j] = EXP(pr[j] - best);
        T total = T(0);
        for (int64_t j = 0; j < S; ++j) total += pr[j];
        for (int64_t j = 0; j < S; ++j) pr[j] = pr[j] / total;
    }}
    T o[R][E] = {{}};
    for (int64_t j = 0; j < S; ++j) {{
        const T* __restrict vj = vb + j * E;
        for (int r = 0; r < R; ++r)
            for (int64_t e = 0; e < E; ++e) o[r][e] += p[r * SP + j] * vj[e];
    }}
    for (int r = 0; r < R; ++r)
        for (int64_t e = 0; e < E; ++e) oi[r][e * os2] = o[r][e];
}}

// q (N, L, D), k (N, S, D), v (N, S, E), any strides; out (N, L, E) with strides os*
extern "C" void kernel(const T* q, const T* k, const T* v, T* out,
                       int64_t N, int64_t L, int64_t S, int64_t D_, int64_t E_,
                       int64_t qs0, int64_t qs1, int64_t qs2,
                       int64_t ks0, int64_t ks1, int64_t ks2,
                       int64_t vs0, int64_t vs1, int64_t vs2,
                       int64_t os0, int64_t os1, int64_t os2, double scale_) {{
    constexpr int R = 4;
    const T scale = T(scale_);
    const int64_t SP = (S + W - 1) / W * W;
    std::vector<T> kt_(D * SP, T(0)), vb_(S * E), p_(R * SP);
    T* __restrict kt = kt_.data();
    T* __restrict vb = vb_.data();
    for (int64_t n = 0; n < N; ++n) {{
        for (int64_t j = 0; j < S; ++j) {{
            for (int64_t d = 0; d < D; ++d) kt[d * SP + j] = k[n * ks0 + j * ks1 + d * ks2];
            for (int64_t e = 0; e < E; ++e) vb[j * E + e] = v[n * vs0 + j * vs1 + e * vs2];
        }}
        const T* qi[R];
        T* oi[R];
        int64_t i = 0;
        for (; i + R <= L; i += R) {{
            for (int r = 0; r < R; ++r) {{
                qi[r] = q + n * qs0 + (i + r) * qs1;
                oi[r] = out + n * os0 + (i + r) * os1;
            }}
            rows<R>(qi, qs2, scale, kt, vb, S, SP, p_.data(), oi, os2);
        }}
        for (; i < L; ++i) {{
            qi[0] = q + n * qs0 + i * qs1;
            oi[0] = out + n * os0 + i * os1;
            rows<1>(qi, qs2, scale, kt, vb, S, SP, p_.data(), oi, os2);
        }}
    }}
}}
"""

_LAYER_NORM_SOURCE = """#include <math.h>
#include <cstdint>
#include <vector>
typedef {scalar} T;
// rows of x (+ y): leading sizes r0, r1, r2 with per-input strides; the last dim
// (C, stride 1) is normalised; out is contiguous
extern "C" void kernel(const T* x, const T* y, const T* w, const T* b, T* out,
                       int64_t r0, int64_t r1, int64_t r2, int64_t C,
                       int64_t xs0, int64_t xs1, int64_t xs2,
                       int64_t ys0, int64_t ys1, int64_t ys2, double eps) {{
    std::vector<T> row(C);
    int64_t o = 0;
    for (int64_t a = 0; a < r0; ++a)
    for (int64_t c = 0; c < r1; ++c)
    for (int64_t d = 0; d < r2; ++d) {{
        const T* xr = x + a * xs0 + c * xs1 + d * xs2;
        double total = 0.0;
        if (y) {{
            const T* yr = y + a * ys0 + c * ys1 + d * ys2;
            for (int64_t e = 0; e < C; ++e) {{ row[e] = xr[e] + yr[e]; total += row[e]; }}
        }} else {{
            for (int64_t e = 0; e < C; ++e) {{ row[e] = xr[e]; total += row[e]; }}
        }}
        const double mean = total / C;
        double squares = 0.0;
        for (int64_t e = 0; e < C; ++e) {{ const double z = row[e] - mean; squares += z * z; }}
        const double inv = 1.0 / sqrt(squares / C + eps);
        T* orow = out + o;
        for (int64_t e = 0; e < C; ++e) {{
            double z = (row[e] - mean) * inv;
            if (w) z *= w[e];
            if (b) z += b[e];
            orow[e] = T(z);
        }}
        o += C;
    }}
}}
"""


def _usable(tensor, dtype) -> bool:
    return (
        isinstance(tensor, torch.Tensor)
        and tensor.dtype == dtype
        and tensor.device.type == "cpu"
        and not (tensor.requires_grad and torch.is_grad_enabled())
    )


class _NativeGroup(FusedKernel):
    """A fusion group whose kernel has its own calling convention (``_argtypes``) and
    runs through :meth:`_run` (None where it does not apply: the ops run instead)."""

    _argtypes: list = []

    def _load(self):
        try:
            library = compile_cpp(self.source())
        except (RuntimeError, OSError):
            self._native_failed = True
            return None
        function = library.kernel
        function.argtypes = self._argtypes
        function.restype = None
        self._native = function
        return function

    def __call__(self, *inputs):
        if self._native is None and self._calls < WARMUP_CALLS:
            self._calls += 1
            return self.fallback(*inputs)
        if not self._native_failed:
            function = self._native or self._load()
            if function is not None:
                result = self._run(function, inputs)
                if result is not None:
                    return result
        return self.fallback(*inputs)


_P, _I, _D = ctypes.c_void_p, ctypes.c_int64, ctypes.c_double


class AttentionKernel(_NativeGroup):
    """``softmax((q * scale) @ k.transpose(-2, -1), -1) @ v`` over 3-d ``q`` (N, L, D),
    ``k`` (N, S, D), ``v`` (N, S, E); with ``seq_first`` the group also holds the
    ``transpose(0, 1)`` of the result, which is then written as (L, N, E) directly."""

    _argtypes = [_P] * 4 + [_I] * 17 + [_D]

    def __init__(self, subgraph: _ir.Graph, scale: float, seq_first: bool) -> None:
        super().__init__(subgraph)
        self.scale, self.seq_first = float(scale), bool(seq_first)
        self.__qualname__ = "fused_attention"
        # which group inputs are q, k, v (the group lists them in first-use order)
        nodes = [n for n in subgraph.nodes if n.kind != "prim::Constant"]
        matmuls = [n for n in nodes if n.kind in ("aten::matmul", "aten::bmm")]
        transpose = next(n for n in nodes if n.kind == "aten::transpose")
        scaling = next((n for n in nodes if n.kind == "aten::mul"), None)
        query = (scaling or matmuls[0]).inputs[0]
        position = {id(v): i for i, v in enumerate(subgraph.inputs)}
        self.order = tuple(
            position[id(v)] for v in (query, transpose.inputs[0], matmuls[1].inputs[1])
        )
        self.depth = query.type.sizes[-1]
        self.width = matmuls[1].inputs[1].type.sizes[-1]

    def spec(self) -> dict:
        return {"attention": [self.scale, self.seq_first]}

    def source(self) -> str:
        scalar = _SCALARS[str(self.dtype)]
        return _ATTENTION_SOURCE.format(
            header=_math_header(scalar),
            scalar=scalar,
            scaled="qi[r][d * qs2] * scale" if self.scale != 1.0 else "qi[r][d * qs2]",
            D=self.depth,
            E=self.width,
        )

    def _run(self, function, inputs):
        if not all(_usable(t, self.dtype) for t in inputs):
            return None
        q, k, v = (inputs[i] for i in self.order)
        if q.dim() != 3 or k.dim() != 3 or v.dim() != 3:
            return None
        (n, length, depth), (nk, source, dk), (nv, sv, width) = q.shape, k.shape, v.shape
        if nk != n or nv != n or dk != depth or sv != source or source == 0:
            return None
        if depth != self.depth or width != self.width:
            return None
        if self.seq_first:
            out = torch.empty((length, n, width), dtype=self.dtype)
            strides = (width, n * width, 1)
        else:
            out = torch.empty((n, length, width), dtype=self.dtype)
            strides = (length * width, width, 1)
        function(q.data_ptr(), k.data_ptr(), v.data_ptr(), out.data_ptr(),
                 n, length, source, depth, width,
                 *q.stride(), *k.stride(), *v.stride(), *strides, self.scale)  # fmt: skip
        return out


class LayerNormKernel(_NativeGroup):
    """``layer_norm(x (+ y), [C], weight, bias, eps)`` over the last dim with constant
    (or no) weight and bias; the group's inputs are ``x`` (and ``y`` with ``residual``)."""

    _argtypes = [_P] * 5 + [_I] * 10 + [_D]

    def __init__(self, subgraph: _ir.Graph, eps: float, residual: bool) -> None:
        super().__init__(subgraph)
        self.eps, self.residual = float(eps), bool(residual)
        self.__qualname__ = "fused_add_layer_norm" if residual else "fused_layer_norm"
        norm = next(n for n in subgraph.nodes if n.kind == "aten::layer_norm")
        self.params = [_constant_tensor(norm, name) for name in ("weight", "bias")]

    def spec(self) -> dict:
        return {"layer_norm": [self.eps, self.residual]}

    def source(self) -> str:
        return _LAYER_NORM_SOURCE.format(scalar=_SCALARS[str(self.dtype)])

    def _run(self, function, inputs):
        if not all(_usable(t, self.dtype) for t in inputs):
            return None
        rows = list(inputs) if self.residual else [inputs[0]]
        x = rows[0]
        if len(rows) != (2 if self.residual else 1) or x.dim() < 1 or x.dim() > 4:
            return None
        width = x.shape[-1]
        if any(t.shape != x.shape or (t.stride(-1) != 1 and width > 1) for t in rows):
            return None
        if any(p is not None and (p.shape != (width,) or p.dtype != self.dtype)
               for p in self.params):  # fmt: skip
            return None
        weight, bias = (None if p is None else p.data_ptr() for p in self.params)
        pad = 4 - x.dim()
        leading = (1,) * pad + tuple(x.shape[:-1])
        strides = [(0,) * pad + tuple(t.stride()[:-1]) for t in rows] + [(0, 0, 0)]
        out = torch.empty(tuple(x.shape), dtype=self.dtype)
        function(x.data_ptr(), rows[1].data_ptr() if self.residual else None, weight, bias,
                 out.data_ptr(), *leading, width, *strides[0], *strides[1], self.eps)  # fmt: skip
        return out


def _constant_tensor(node: _ir.Node, name: str):
    """The constant tensor (or None) passed to ``node`` as ``name``; the pass fuses only
    layer norms whose weight and bias are constants."""
    from ._passes._util import arguments, constant_value

    value = arguments(node).get(name)
    if value is None:
        return None
    found = constant_value(value)
    return found.contiguous() if isinstance(found, torch.Tensor) else None


def kernel_from_spec(subgraph: _ir.Graph, spec: dict):
    """The kernel of a saved fusion group of this module (None for other specs)."""
    if "attention" in spec:
        return AttentionKernel(subgraph, *spec["attention"])
    if "layer_norm" in spec:
        return LayerNormKernel(subgraph, *spec["layer_norm"])
    return None
