"""``torch._dynamo``: TorchDynamo, the graph capture behind ``torch.compile``, which this
project does not have. Only :class:`OptimizedModule` (what ``torch.compile`` returns for a
module) is here, so that ``isinstance(m, OptimizedModule)`` checks (lightning) answer
``False``; making one raises ``NotImplementedError``."""

__all__ = ["OptimizedModule"]


class OptimizedModule:
    """A module compiled by ``torch.compile``. Never made here."""

    def __init__(self, *args, **kwargs) -> None:
        raise NotImplementedError(
            "torch.compile (TorchDynamo) is not implemented in this project: modules run eagerly"
        )
