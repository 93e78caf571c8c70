"""The strong-Wolfe line search used by :class:`torch.optim.LBFGS`.

Scalars stay 0-dim tensors where they come from tensors (dot products), so that their
arithmetic rounds in the parameters' dtype as PyTorch's does.
"""

from __future__ import annotations

__all__ = ["cubic_minimum", "strong_wolfe"]


def cubic_minimum(x1, f1, g1, x2, f2, g2, bounds=None):
    """The minimizer of the cubic through ``(x1, f1)``, ``(x2, f2)`` with slopes ``g1``,
    ``g2``, clipped to ``bounds`` (default: the interval between the points); the
    bounds' midpoint when the cubic has no minimum.

    Examples::

        >>> from torch.optim._line_search import cubic_minimum
        >>> round(float(cubic_minimum(0.0, 1.0, -2.0, 2.0, 1.0, 2.0)), 6)
        1.0
    """
    if bounds is not None:
        low, high = bounds
    else:
        low, high = (x1, x2) if x1 <= x2 else (x2, x1)
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1**2 - g1 * g2
    if d2_square < 0:
        return (low + high) / 2.0
    d2 = d2_square.sqrt() if hasattr(d2_square, "sqrt") else d2_square**0.5
    if x1 <= x2:
        position = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
    else:
        position = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
    return min(max(position, low), high)


class _Point:
    """A trial step ``t`` with its loss, flat gradient and directional derivative."""

    __slots__ = ("t", "f", "g", "gtd")

    def __init__(self, t, f, g, gtd):
        self.t, self.f, self.g, self.gtd = t, f, g, gtd


def strong_wolfe(obj_func, x, t, d, f, g, gtd, c1=1e-4, c2=0.9, tolerance_change=1e-9, max_ls=25):
    """A step ``t`` along ``d`` satisfying the strong Wolfe conditions (sufficient
    decrease ``c1``, curvature ``c2``), found by bracketing then zooming with cubic
    interpolation. ``obj_func(x, t, d)`` returns the loss and flat gradient at
    ``x + t * d``. Returns ``(loss, flat_grad, t, evaluations)``."""
    d_norm = d.abs().max()
    start = _Point(0, f, g.clone(), gtd)
    f_new, g_new = obj_func(x, t, d)
    trial = _Point(t, f_new, g_new, g_new.dot(d))
    bracket, done, evals, iters = _bracket(obj_func, x, d, start, trial, c1, c2, max_ls)
    evals += 1
    if iters == max_ls:
        last = bracket[-1]
        bracket = [_Point(0, f, g.clone(), None), _Point(last.t, last.f, last.g, None)]
    low, evals_zoom = _zoom(
        obj_func, x, d, start, bracket, done, iters, d_norm, c1, c2, tolerance_change, max_ls
    )
    return low.f, low.g, low.t, evals + evals_zoom


def _bracket(obj_func, x, d, start, trial, c1, c2, max_ls):
    """Grow the step until an interval containing a Wolfe point is bracketed (or the
    trial step itself satisfies the conditions)."""
    prev = start
    iters = evals = 0
    while iters < max_ls:
        if trial.f > (start.f + c1 * trial.t * start.gtd) or (iters > 1 and trial.f >= prev.f):
            return [prev, _copy(trial)], False, evals, iters
        if abs(trial.gtd) <= -c2 * start.gtd:
            return [trial], True, evals, iters
        if trial.gtd >= 0:
            return [prev, _copy(trial)], False, evals, iters
        min_step = trial.t + 0.01 * (trial.t - prev.t)
        max_step = trial.t * 10
        t = cubic_minimum(
            prev.t, prev.f, prev.gtd, trial.t, trial.f, trial.gtd, bounds=(min_step, max_step)
        )
        prev = _copy(trial)
        f_new, g_new = obj_func(x, t, d)
        trial = _Point(t, f_new, g_new, g_new.dot(d))
        evals += 1
        iters += 1
    return [prev, trial], False, evals, iters


def _copy(point: _Point) -> _Point:
    return _Point(point.t, point.f, point.g.clone(), point.gtd)


def _zoom(obj_func, x, d, start, bracket, done, iters, d_norm, c1, c2, tol, max_ls):
    """Shrink the bracket by safeguarded cubic interpolation until a Wolfe point is
    found; returns the best point and the number of evaluations."""
    evals = 0
    insufficient = False
    low, high = (0, 1) if bracket[0].f <= bracket[-1].f else (1, 0)
    while not done and iters < max_ls:
        a, b = bracket
        if abs(b.t - a.t) * d_norm < tol:
            break
        t = cubic_minimum(a.t, a.f, a.gtd, b.t, b.f, b.gtd)
        t, insufficient = _safeguard(t, a.t, b.t, insufficient)
        f_new, g_new = obj_func(x, t, d)
        point = _Point(t, f_new, g_new, g_new.dot(d))
        evals += 1
        iters += 1
        if point.f > (start.f + c1 * t * start.gtd) or point.f >= bracket[low].f:
            bracket[high] = _copy(point)
            low, high = (0, 1) if bracket[0].f <= bracket[1].f else (1, 0)
        else:
            if abs(point.gtd) <= -c2 * start.gtd:
                done = True
            elif point.gtd * (bracket[high].t - bracket[low].t) >= 0:
                bracket[high] = bracket[low]
            bracket[low] = _copy(point)
    return bracket[low], evals


def _safeguard(t, ta, tb, insufficient):
    """Keep the interpolated step away from the bracket's ends (at least a tenth of its
    width), unless progress was already insufficient once."""
    top, bottom = max(ta, tb), min(ta, tb)
    eps = 0.1 * (top - bottom)
    if min(top - t, t - bottom) >= eps:
        return t, False
    if insufficient or t >= top or t <= bottom:
        t = top - eps if abs(t - top) < abs(t - bottom) else bottom + eps
        return t, False
    return t, True
