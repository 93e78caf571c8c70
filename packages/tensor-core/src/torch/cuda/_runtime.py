"""The CUDA runtime behind ``torch.cuda``: real devices through CuPy, simulated ones on the
host (``TORCH_CUDA_SIMULATE=N``), or none.

``get()`` returns the active runtime, or ``None`` when there is no CUDA device to use; the
public functions of ``torch.cuda`` then behave as PyTorch's CPU-only build does. A runtime
object answers (``device`` is an int index; ``None`` means the current device):

- ``simulated`` (bool), ``device_count()``, ``current_device()``, ``set_device(i)``,
  ``synchronize(device)``
- ``device_name(i)``, ``device_properties(i)`` (``name``, ``major``, ``minor``,
  ``total_memory``, ``multi_processor_count``), ``device_capability(i)``
- ``memory_allocated(i)``, ``max_memory_allocated(i)``, ``memory_reserved(i)``,
  ``max_memory_reserved(i)``, ``memory_stats(i)`` (dict), ``reset_peak_memory_stats(i)``,
  ``empty_cache()``, ``mem_get_info(i)``
- ``Stream``, ``Event`` classes, ``current_stream(i)``, ``default_stream(i)``,
  ``set_stream(stream)``
- ``manual_seed(seed, i)``, ``seed(i)``, ``initial_seed(i)``, ``get_rng_state(i)``,
  ``set_rng_state(state, i)``

This module is the placeholder until the backend lands: no runtime yet.
"""

from __future__ import annotations

__all__ = ["get"]


def get():
    """The active CUDA runtime, or ``None`` when no CUDA device can be used."""
    return None
