"""Function transforms shared by ``torch.func`` and ``torch.autograd.forward_ad``: levels
and wrapper tensors (``levels``), the interposed ``torch.*`` functions (``_interpose``),
forward-mode AD (``dual``, ``jvp_rules``) and reverse mode through wrappers
(``reverse``)."""
