"""Entry points of the script compiler."""

from __future__ import annotations


def script_object(obj):
    raise NotImplementedError("torch.jit.script is not built yet in this project")


def compile_source(source: str):
    raise NotImplementedError("torch.jit.CompilationUnit is not built yet in this project")
