"""torch.torch_version: ``TorchVersion``, the type of ``torch.__version__``.

``torch.__version__`` names the PyTorch release whose public behaviour this project
follows, with torch-core's own release as the local label (``2.13.0+core.0.7.0``):
libraries gate features on ``torch.__version__ >= "1.x"`` or ``>= (2, 0)``, and they
must see the API they are getting. ``torch.version.core_version`` keeps torch-core's
release alone.
"""

from __future__ import annotations

import re

__all__ = ["TorchVersion"]

# PEP 440's public part: release numbers, an optional pre-release (a/b/rc), post and dev
# numbers; then an optional local label after "+"
_VERSION = re.compile(
    r"^\s*v?(?P<release>\d+(?:\.\d+)*)"
    r"(?:[-_.]?(?P<pre>a|b|c|rc|alpha|beta|pre|preview)[-_.]?(?P<pre_n>\d+)?)?"
    r"(?:[-_.]?(?:post|rev|r)[-_.]?(?P<post>\d+)?)?"
    r"(?:[-_.]?dev[-_.]?(?P<dev>\d+)?)?"
    r"(?:\+(?P<local>[a-z0-9]+(?:[-_.][a-z0-9]+)*))?\s*$",
    re.IGNORECASE,
)
_PRE_RANK = {"a": 0, "alpha": 0, "b": 1, "beta": 1, "c": 2, "rc": 2, "pre": 2, "preview": 2}


def _key(text: str) -> tuple:
    """A sort key with PEP 440's order: dev < pre-releases < the release < post-releases,
    and a local label after the same public version."""
    match = _VERSION.match(text)
    if match is None:
        raise ValueError(f"Invalid version: '{text}'")
    release = tuple(int(n) for n in match["release"].split("."))
    while len(release) > 1 and release[-1] == 0:  # 2.13 == 2.13.0
        release = release[:-1]
    if match["pre"] is not None:
        pre = (_PRE_RANK[match["pre"].lower()], int(match["pre_n"] or 0))
    elif match["dev"] is not None and match["post"] is None:
        pre = (-1, 0)  # a dev release of the release itself comes before its pre-releases
    else:
        pre = (3, 0)
    post = -1 if match["post"] is None else int(match["post"])
    dev = float("inf") if match["dev"] is None else int(match["dev"])
    local = () if match["local"] is None else tuple(re.split(r"[-_.]", match["local"].lower()))
    local_key = tuple((1, int(p), "") if p.isdigit() else (0, 0, p) for p in local)
    return (release, pre, post, dev, local_key)


def _as_text(other) -> str:
    if isinstance(other, tuple):
        return ".".join(str(part) for part in other)
    return str(other)


class TorchVersion(str):
    """A version string that compares as a version: with another string
    (``torch.__version__ >= "1.10"``), a tuple of numbers (``>= (2, 0)``) or a
    ``packaging`` ``Version``."""

    def _keys(self, other) -> tuple[tuple, tuple]:
        return _key(str(self)), _key(_as_text(other))

    def __eq__(self, other) -> bool:
        try:
            mine, theirs = self._keys(other)
        except ValueError:  # not a version: compared as the string it is
            return str.__eq__(self, other)
        return mine == theirs

    def __ne__(self, other) -> bool:
        return not self == other

    def __lt__(self, other) -> bool:
        mine, theirs = self._keys(other)
        return mine < theirs

    def __le__(self, other) -> bool:
        mine, theirs = self._keys(other)
        return mine <= theirs

    def __gt__(self, other) -> bool:
        mine, theirs = self._keys(other)
        return mine > theirs

    def __ge__(self, other) -> bool:
        mine, theirs = self._keys(other)
        return mine >= theirs

    __hash__ = str.__hash__
