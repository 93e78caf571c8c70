"""Errors of the script compiler (``torch.jit.script``), located in the source.

The message names the construct and shows where it is::

    try blocks aren't supported:
      File "model.py", line 14
        try:
        ~~~ <--- HERE
"""

from __future__ import annotations

import ast

__all__ = ["FrontendError", "NotSupportedError", "UnsupportedNodeError", "SourceRange"]


class SourceRange:
    """Where a construct is: a file, the source lines of its function (starting at line
    ``first_line`` of the file) and a line/column span."""

    __slots__ = ("filename", "lines", "first_line", "line", "column", "end_column")

    def __init__(self, filename, lines, first_line, line, column, end_column) -> None:
        self.filename = filename
        self.lines = lines
        self.first_line = first_line
        self.line = line  # 1-based, in the file
        self.column = column
        self.end_column = end_column

    @classmethod
    def of(cls, node: ast.AST, filename: str, lines: list[str], first_line: int, indent: int):
        """The range of AST ``node`` parsed from the dedented ``lines`` of a function that
        starts at line ``first_line`` of ``filename`` (dedented by ``indent`` columns)."""
        line = getattr(node, "lineno", 1)
        column = getattr(node, "col_offset", 0) + indent
        end = getattr(node, "end_col_offset", None)
        end = column + 1 if end is None else end + indent
        if getattr(node, "end_lineno", line) != line and line - 1 < len(lines):
            end = len(lines[line - 1].rstrip("\n"))
        return cls(filename, lines, first_line, first_line + line - 1, column, max(end, column + 1))

    def highlight(self) -> str:
        index = self.line - self.first_line
        out = [f'  File "{self.filename}", line {self.line}']
        if 0 < index <= len(self.lines):
            out.append(self.lines[index - 1].rstrip("\n"))
        if 0 <= index < len(self.lines):
            out.append(self.lines[index].rstrip("\n"))
            marker = " " * self.column + "~" * (self.end_column - self.column) + " <--- HERE"
            out.append(marker)
            out.extend(line.rstrip("\n") for line in self.lines[index + 1 : index + 3])
        return "\n".join(out) + "\n"


class FrontendError(Exception):
    """A construct the script compiler cannot compile, with its source location."""

    def __init__(self, source_range: SourceRange | None, msg: str) -> None:
        self.source_range = source_range
        self.msg = msg
        super().__init__(self._text())

    def _text(self) -> str:
        if self.source_range is None:
            return self.msg
        return f"{self.msg}:\n{self.source_range.highlight()}"


FrontendError.__module__ = "torch.jit.frontend"


class NotSupportedError(FrontendError):
    """A Python feature outside the supported subset."""


NotSupportedError.__module__ = "torch.jit.frontend"


class UnsupportedNodeError(NotSupportedError):
    """A kind of statement or expression the compiler does not know."""

    def __init__(self, source_range: SourceRange | None, node_kind: str) -> None:
        super().__init__(source_range, f"{node_kind} aren't supported")


UnsupportedNodeError.__module__ = "torch.jit.frontend"
