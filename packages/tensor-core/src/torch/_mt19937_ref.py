"""NumPy reference for the native Mersenne Twister kernel (``torch._C.MT19937``).

It is the test oracle of the native kernel and the implementation used when
``TORCH_NATIVE=0``. Seeding is written out here; the twist and tempering come from
NumPy's own MT19937 bit generator, which produces the standard MT19937 stream.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

STATE_SIZE = 624
_F32_SCALE = np.float32(2.0**-24)
_F64_SCALE = 2.0**-53


def seeded_key(seed: int) -> np.ndarray:
    """The 624-word state of ``std::mt19937(seed)`` (only the low 32 bits of the seed count)."""
    key = [seed & 0xFFFFFFFF]
    for i in range(1, STATE_SIZE):
        prev = key[-1]
        key.append((1812433253 * (prev ^ (prev >> 30)) + i) & 0xFFFFFFFF)
    return np.array(key, dtype=np.uint32)


class MT19937:
    """Same interface as ``torch._C.MT19937``."""

    def __init__(self, seed: int = 5489) -> None:
        self._bitgen = np.random.MT19937(0)
        self.cached_normal = None
        self.seed(seed)

    def seed(self, seed: int) -> None:
        self.set_state(seeded_key(seed), STATE_SIZE)
        self.cached_normal = None

    def get_state(self) -> tuple[np.ndarray, int]:
        state = self._bitgen.state["state"]
        return state["key"].astype(np.uint32), int(state["pos"])

    def set_state(self, key, pos: int) -> None:
        key = np.asarray(key, dtype=np.uint32)
        if key.shape != (STATE_SIZE,):
            raise ValueError(f"MT19937 state must be 624 uint32 words, got {key.size} words")
        if not 0 <= pos <= STATE_SIZE:
            raise ValueError(f"MT19937 position must be in [0, 624], got {pos}")
        self._bitgen.state = {"bit_generator": "MT19937", "state": {"key": key, "pos": pos}}

    def random_raw(self, n: int) -> np.ndarray:
        if n < 0:
            raise ValueError("random_raw: n must be non-negative")
        return self._bitgen.random_raw(n).astype(np.uint32)

    def fill_uniform(self, out: np.ndarray, low: float, high: float) -> None:
        if out.dtype == np.float32:
            raw = self.random_raw(out.size)
            x = (raw & 0xFFFFFF).astype(np.float32) * _F32_SCALE
            out.reshape(-1)[...] = _fma_f32(x, np.float32(high) - np.float32(low), np.float32(low))
        elif out.dtype == np.float64:
            raw = self.random_raw(2 * out.size).astype(np.uint64)
            words = (raw[0::2] << np.uint64(32)) | raw[1::2]
            x = (words & np.uint64((1 << 53) - 1)).astype(np.float64) * _F64_SCALE
            out.reshape(-1)[...] = _fma_f64(x, high - low, low)
        else:
            raise TypeError("fill_uniform: output must be float32 or float64")

    def _uniform(self, n: int, dtype) -> np.ndarray:
        if dtype == np.float32:
            return (self.random_raw(n) & 0xFFFFFF).astype(np.float32) * _F32_SCALE
        raw = self.random_raw(2 * n).astype(np.uint64)
        words = (raw[0::2] << np.uint64(32)) | raw[1::2]
        return (words & np.uint64((1 << 53) - 1)).astype(np.float64) * _F64_SCALE

    def next_normal(self, mean: float, std: float) -> float:
        if self.cached_normal is not None:
            value, self.cached_normal = self.cached_normal, None
            return value * std + mean
        u1, u2 = self._uniform(2, np.float64)
        radius = math.sqrt(-2.0 * math.log1p(-u2))
        theta = 2.0 * math.pi * u1
        self.cached_normal = radius * math.sin(theta)
        return radius * math.cos(theta) * std + mean

    def fill_normal(self, out: np.ndarray, mean: float, std: float) -> None:
        if out.dtype not in (np.float32, np.float64):
            raise TypeError("fill_normal: output must be float32 or float64")
        flat = out.reshape(-1)
        n = flat.size
        if n < 16:
            flat[...] = [self.next_normal(mean, std) for _ in range(n)]
            return
        values = self._uniform(n, out.dtype)
        whole = n // 16 * 16
        values[:whole] = _box_muller_blocks(values[:whole], mean, std)
        if n % 16:
            values[n - 16 :] = _box_muller_blocks(self._uniform(16, out.dtype), mean, std)
        flat[...] = values

    def randperm(self, n: int) -> np.ndarray:
        if n < 0:
            raise ValueError("randperm: n must be non-negative")
        out = np.arange(n, dtype=np.int64)
        wide = n >= 0xFFFFFFFF // 20
        for i in range(n - 1):
            if wide:
                hi, lo = (int(v) for v in self.random_raw(2))
                draw = (hi << 32) | lo
            else:
                draw = int(self.random_raw(1)[0])
            z = i + draw % (n - i)
            out[i], out[z] = out[z], out[i]
        return out


def _box_muller_blocks(uniform: np.ndarray, mean: float, std: float) -> np.ndarray:
    """Box-Muller over blocks of 16: slot j of a block pairs with slot j + 8."""
    blocks = uniform.astype(np.float64).reshape(-1, 2, 8)
    radius = np.sqrt(-2.0 * np.log(1.0 - blocks[:, 0]))
    theta = 2.0 * np.pi * blocks[:, 1]
    result = np.stack(
        [radius * np.cos(theta) * std + mean, radius * np.sin(theta) * std + mean], axis=1
    )
    return result.reshape(-1).astype(uniform.dtype)


def _fma_f32(x: np.ndarray, span: np.float32, low: np.float32) -> np.ndarray:
    """``x * span + low`` rounded once to float32, as a fused multiply-add does."""
    product = x.astype(np.float64) * np.float64(span)  # exact: 24 x 24 bits
    total = product + np.float64(low)
    # TwoSum: the exact error of that double addition
    b_virtual = total - product
    error = (product - (total - b_virtual)) + (np.float64(low) - b_virtual)
    rounded = total.astype(np.float32)
    # Rounding the double to float32 is a second rounding; it can only go wrong when the
    # double sits exactly halfway between two floats while the exact value did not.
    up = np.nextafter(rounded, np.float32(np.inf)).astype(np.float64)
    down = np.nextafter(rounded, np.float32(-np.inf)).astype(np.float64)
    r64 = rounded.astype(np.float64)
    halfway = ((total == (r64 + up) / 2) | (total == (r64 + down) / 2)) & (error != 0)
    if halfway.any():
        nudged = np.nextafter(total[halfway], total[halfway] + error[halfway])
        rounded[halfway] = nudged.astype(np.float32)
    return rounded


def _fma_f64(x: np.ndarray, span: float, low: float) -> np.ndarray:
    """``x * span + low`` rounded once to float64."""
    if span == 1.0 and low == 0.0:
        return x  # exact without any rounding
    return np.array(
        [float(Fraction(v) * Fraction(span) + Fraction(low)) for v in x.tolist()], dtype=np.float64
    )
