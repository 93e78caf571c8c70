"""Native kernels of fusion groups: generated C++, compiled once, cached on disk.

Why generated C++ and not a code generator from PyPI: numexpr (the obvious candidate)
would be a new dependency of every install and evaluates its expressions in blocks with
its own virtual machine, re-parsing nothing but still dispatching per op per block; a
C++ loop compiled for the exact expression reads each input once and lets the compiler
vectorise ``exp``/``tanh`` (glibc's vector math through ``-ffast-math``). The system
compiler (``c++``, ``g++`` or ``$CXX``) is present wherever torch-core's native code was
built; without one (or with ``TORCH_JIT_FUSION=0``) a fusion group runs its ops one by
one, as unfused code would.

The kernels keep IEEE semantics (no ``-ffast-math``: NaN and infinities propagate as in
the ops); the loops still vectorise because the generated source declares glibc's
vector variants of ``exp``, ``log``, ``sin``, ``cos`` (and ``tanh``, ``erf`` from glibc
2.35) with ``__attribute__((simd))``, as glibc's own headers do under ``-ffast-math``.

The cache lives in ``$TORCH_JIT_CACHE`` (default ``~/.cache/torch_jit``), one shared
library per distinct kernel source and compiler command (the file name is the SHA-256
of both), written to a temporary name and renamed so that concurrent processes never
load a half-written library.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import shutil
import subprocess
import tempfile

import torch

from . import _codegen, _ir

__all__ = ["FusedKernel", "compile_cpp", "cache_dir", "compiler_available"]

_FLAGS = ["-O3", "-march=native", "-fno-math-errno", "-shared", "-fPIC"]
_LIBS = ["-lm"]  # libm's linker script brings libmvec (the vector math variants)
_SCALARS = {"torch.float32": "float", "torch.float64": "double"}
_loaded: dict[str, ctypes.CDLL] = {}
#: calls of a fusion group that run its ops before its kernel is compiled
WARMUP_CALLS = 2


def cache_dir() -> str:
    root = os.environ.get("TORCH_JIT_CACHE") or os.path.join(
        os.path.expanduser("~"), ".cache", "torch_jit"
    )
    return os.path.join(root, "kernels")


def _compiler() -> str | None:
    for name in (os.environ.get("CXX"), "c++", "g++", "clang++"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def compiler_available() -> bool:
    return os.environ.get("TORCH_JIT_FUSION", "1") != "0" and _compiler() is not None


def compile_cpp(source: str) -> ctypes.CDLL:
    """The shared library built from ``source`` (compiled on first use, then cached)."""
    compiler = _compiler()
    if compiler is None:
        raise RuntimeError("no C++ compiler found (set CXX) to build fused kernels")
    command = [compiler, *_FLAGS]
    key = hashlib.sha256((source + "\0" + " ".join(command)).encode()).hexdigest()[:32]
    if key in _loaded:
        return _loaded[key]
    directory = cache_dir()
    path = os.path.join(directory, f"{key}.so")
    if not os.path.exists(path):
        os.makedirs(directory, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=directory) as work:
            src = os.path.join(work, "kernel.cpp")
            with open(src, "w") as file:
                file.write(source)
            built = os.path.join(work, "kernel.so")
            result = subprocess.run(
                [*command, src, "-o", built, *_LIBS], capture_output=True, text=True, check=False
            )
            if result.returncode != 0:
                raise RuntimeError(f"compiling a fused kernel failed:\n{result.stderr}")
            os.replace(built, path)  # atomic: other processes see all of it or nothing
    library = ctypes.CDLL(path)
    _loaded[key] = library
    return library


def _glibc_at_least(major: int, minor: int) -> bool:
    try:
        name, version = os.confstr("CS_GNU_LIBC_VERSION").split()
        found = tuple(int(p) for p in version.split(".")[:2])
    except (ValueError, OSError, AttributeError):
        return False
    return name == "glibc" and found >= (major, minor)


def _math_header(scalar: str) -> str:
    """Macros naming the C math functions of ``scalar`` and their vector declarations."""
    suffix = "f" if scalar == "float" else ""
    vectorised = ["exp", "log", "sin", "cos"]
    if _glibc_at_least(2, 35):
        vectorised += ["tanh", "erf"]
    lines = []
    if _glibc_at_least(2, 22) and os.uname().machine == "x86_64":
        for name in vectorised:
            lines.append(
                f'extern "C" {scalar} {name}{suffix}({scalar}) noexcept '
                '__attribute__((simd("notinbranch")));'
            )
    for name in ("exp", "log", "sin", "cos", "tanh", "erf", "sqrt", "fabs"):
        lines.append(f"#define {name.upper()} {name}{suffix}")
    return "\n".join(lines)


def _cpp_source(subgraph: _ir.Graph, scalar: str) -> str:
    from ._passes.fusion import ELEMENTWISE

    names: dict[int, str] = {}
    lines = []
    for index, value in enumerate(subgraph.inputs):
        names[id(value)] = f"in{index}[i]"
    for node in subgraph.nodes:
        if node.kind == "prim::Constant":
            names[id(node.output())] = f"T({float(node.attrs['value'])!r})"
            continue
        operands = [names[id(v)] for v in node.inputs]
        name = f"v{len(lines)}"
        lines.append(f"        const T {name} = {ELEMENTWISE[node.kind].format(*operands)};")
        names[id(node.output())] = name
    params = ", ".join(f"const T* __restrict in{i}" for i in range(len(subgraph.inputs)))
    body = "\n".join(lines)
    result = names[id(subgraph.outputs[0])]
    return f"""#include <math.h>
#include <cstdint>
{_math_header(scalar)}
typedef {scalar} T;
extern "C" void kernel({params}, T* __restrict out, int64_t n) {{
    #pragma GCC ivdep
    for (int64_t i = 0; i < n; ++i) {{
{body}
        out[i] = {result};
    }}
}}
"""


class FusedKernel:
    """The callable of a ``prim::FusionGroup``: the native loop where it applies, the
    subgraph's ops otherwise (see the module docstring of the fusion pass)."""

    def __init__(self, subgraph: _ir.Graph) -> None:
        self.subgraph = subgraph
        out = subgraph.outputs[0].type
        self.dtype = out.dtype
        self.sizes = tuple(out.sizes)
        self.__qualname__ = f"fused_{len(subgraph.nodes)}_ops"
        self._fallback = None
        self._native = None
        self._native_failed = not compiler_available()
        # like PyTorch's profiling executor, the first calls run the ops: a graph called
        # once or twice never waits for the compiler
        self._calls = 0

    def source(self) -> str:
        return _cpp_source(self.subgraph, _SCALARS[str(self.dtype)])

    def _load(self):
        try:
            library = compile_cpp(self.source())
        except (RuntimeError, OSError):
            self._native_failed = True
            return None
        function = library.kernel
        n_inputs = len(self.subgraph.inputs)
        function.argtypes = [ctypes.c_void_p] * (n_inputs + 1) + [ctypes.c_int64]
        function.restype = None
        self._native = function
        return function

    def fallback(self, *inputs):
        if self._fallback is None:
            self._fallback = _codegen.compile_graph(self.subgraph, "fused")
        return self._fallback(*inputs)

    def _suits_native(self, tensor) -> bool:
        """Whether the native loop can read ``tensor``: a contiguous CPU tensor of the
        kernel's dtype that autograd does not need to see."""
        return (
            isinstance(tensor, torch.Tensor)
            and tensor.dtype == self.dtype
            and tensor.is_contiguous()
            and tensor.device.type == "cpu"
            and not (torch.is_grad_enabled() and tensor.requires_grad)
        )

    def _native_applies(self, inputs) -> bool:
        if self._native_failed or not all(self._suits_native(t) for t in inputs):
            return False
        return all(t.shape == inputs[0].shape for t in inputs)

    def _native_function(self, inputs):
        """The compiled loop to run on ``inputs``, or None where the ops run instead
        (during the warm-up calls, on inputs it does not apply to, without a compiler)."""
        if self._native is None and self._calls < WARMUP_CALLS:
            self._calls += 1
            return None
        if not self._native_applies(inputs):
            return None
        return self._native or self._load()

    def __call__(self, *inputs):
        function = self._native_function(inputs)
        if function is None:
            return self.fallback(*inputs)
        return self._run_native(function, inputs)

    def _run_native(self, function, inputs):
        out = torch.empty(inputs[0].shape, dtype=self.dtype)
        function(*[t.data_ptr() for t in inputs], out.data_ptr(), out.numel())
        return out

    def __repr__(self) -> str:
        return f"<fused kernel of {len(self.subgraph.nodes)} ops over {self.sizes}>"


_POOL_SOURCE = """#include <cstdint>
typedef {scalar} T;
extern "C" void kernel(const T* __restrict in, T* __restrict out, int64_t planes) {{
    const int64_t H = {H}, W = {W}, OH = {OH}, OW = {OW};
    for (int64_t p = 0; p < planes; ++p) {{
        const T* src = in + p * H * W;
        T* dst = out + p * OH * OW;
        for (int64_t oh = 0; oh < OH; ++oh) {{
            for (int64_t ow = 0; ow < OW; ++ow) {{
                const T* window = src + oh * {SH} * W + ow * {SW};
                T best = window[0];
                for (int64_t kh = 0; kh < {KH}; ++kh) {{
                    for (int64_t kw = 0; kw < {KW}; ++kw) {{
                        const T v = window[kh * W + kw];
                        best = (v > best || v != v) ? v : best;  // NaN wins, as in torch
                    }}
                }}
{relu}                dst[oh * OW + ow] = best;
            }}
        }}
    }}
}}
"""


class PoolKernel(FusedKernel):
    """The kernel of a max pooling group (``relu`` then ``max_pool2d``, or the pooling
    alone) of fixed channel and spatial sizes, any batch size."""

    def __init__(self, subgraph: _ir.Graph, kernel: tuple, stride: tuple) -> None:
        super().__init__(subgraph)
        source = subgraph.inputs[0].type
        self.in_sizes = tuple(source.sizes[1:])
        channels, height, width = self.in_sizes
        self.kernel, self.stride = kernel, stride
        self.out_hw = ((height - kernel[0]) // stride[0] + 1, (width - kernel[1]) // stride[1] + 1)
        self.relu = any(n.kind in ("aten::relu", "aten::relu_") for n in subgraph.nodes)
        self.__qualname__ = "fused_max_pool2d"

    def source(self) -> str:
        height, width = self.in_sizes[1:]
        relu = "                best = (best > T(0) || best != best) ? best : T(0);\n"
        return _POOL_SOURCE.format(
            scalar=_SCALARS[str(self.dtype)],
            H=height,
            W=width,
            OH=self.out_hw[0],
            OW=self.out_hw[1],
            KH=self.kernel[0],
            KW=self.kernel[1],
            SH=self.stride[0],
            SW=self.stride[1],
            relu=relu if self.relu else "",
        )

    def _load(self):
        function = super()._load()
        if function is not None:
            function.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64]
        return function

    def _native_applies(self, inputs) -> bool:
        if self._native_failed or len(inputs) != 1 or not self._suits_native(inputs[0]):
            return False
        x = inputs[0]
        return x.dim() == 4 and tuple(x.shape[1:]) == self.in_sizes

    def _run_native(self, function, inputs):
        x = inputs[0]
        batch, channels = x.shape[0], self.in_sizes[0]
        out = torch.empty((batch, channels, *self.out_hw), dtype=self.dtype)
        function(x.data_ptr(), out.data_ptr(), batch * channels)
        return out
