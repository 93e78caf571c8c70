"""The older name of checkpoint downloading: ``torch.utils.model_zoo.load_url`` is
:func:`torch.hub.load_state_dict_from_url`."""

from torch.hub import load_state_dict_from_url as load_url
from torch.hub import tqdm  # noqa: F401

__all__ = ["load_url"]  # tqdm (the progress bar class) is importable here too, as in PyTorch
