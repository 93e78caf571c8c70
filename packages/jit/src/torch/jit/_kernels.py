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
_SCALARS = {
    "torch.float32": ("float", ctypes.c_float),
    "torch.float64": ("double", ctypes.c_double),
}
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
        self.numel = 1
        for size in self.sizes:
            self.numel *= size
        self.__qualname__ = f"fused_{len(subgraph.nodes)}_ops"
        self._fallback = None
        self._native = None
        self._native_failed = not compiler_available()
        # like PyTorch's profiling executor, the first calls run the ops: a graph called
        # once or twice never waits for the compiler
        self._calls = 0

    def source(self) -> str:
        return _cpp_source(self.subgraph, _SCALARS[str(self.dtype)][0])

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

    def _native_applies(self, inputs) -> bool:
        if self._native_failed:
            return False
        grad = torch.is_grad_enabled()
        for tensor in inputs:
            if (
                type(tensor) is not torch.Tensor
                and not isinstance(tensor, torch.Tensor)
                or tensor.dtype != self.dtype
                or tuple(tensor.shape) != self.sizes
                or not tensor.is_contiguous()
                or tensor.device.type != "cpu"
                or (grad and tensor.requires_grad)
            ):
                return False
        return True

    def __call__(self, *inputs):
        if self._native is None and self._calls < WARMUP_CALLS:
            self._calls += 1
            return self.fallback(*inputs)
        if not self._native_applies(inputs):
            return self.fallback(*inputs)
        function = self._native or self._load()
        if function is None:
            return self.fallback(*inputs)
        out = torch.empty(self.sizes, dtype=self.dtype)
        function(*[t.data_ptr() for t in inputs], out.data_ptr(), self.numel)
        return out

    def __repr__(self) -> str:
        return f"<fused kernel of {len(self.subgraph.nodes)} ops over {self.sizes}>"
