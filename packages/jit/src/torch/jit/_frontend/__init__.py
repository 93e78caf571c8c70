"""The script compiler: Python AST of the supported subset -> graph IR."""
