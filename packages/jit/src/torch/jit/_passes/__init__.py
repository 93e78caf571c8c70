"""Graph passes: each module rewrites a :class:`torch.jit._ir.Graph` in place (or returns
a new one) and says what it keeps invariant."""
