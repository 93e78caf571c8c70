"""Nonlinear conjugate gradients with Rasmussen's line search (``minimize.m``)."""

from __future__ import annotations

import math

from ._common import config_and_state

__all__ = ["cg"]


def _finite(value):
    return not (math.isnan(value) or math.isinf(value))


class _Run:
    """One call of :func:`cg`: the point, the evaluation count and the history."""

    def __init__(self, opfunc, x, max_eval):
        self.opfunc, self.x, self.max_eval = opfunc, x, max_eval
        self.evaluations = 0

    def evaluate(self):
        f, df = self.opfunc(self.x)
        self.evaluations += 1
        return float(f), df.clone()


def cg(opfunc, x, config=None, state=None):
    """Minimize from ``x`` (changed in place) by Polak-Ribiere conjugate gradients; each
    line search extrapolates and interpolates with cubic and quadratic fits until the
    Wolfe-Powell conditions hold (Carl E. Rasmussen's ``minimize.m``).

    Args:
        opfunc (callable): ``opfunc(x) -> (f(x), df/dx)``.
        x (Tensor): the starting point.
        config (dict, optional): ``maxEval`` (``maxIter * 1.25``: evaluations in all),
            ``maxIter`` (``20``: evaluations per line search), ``rho`` (``0.01``) and
            ``sig`` (``0.5``: the Wolfe-Powell constants), ``int`` (``0.1``: how close to
            the ends of the bracket a new point may be), ``ext`` (``3.0``: the largest
            extrapolation), ``ratio`` (``100``: the largest growth of the first step of
            the next line search).
        state (dict, optional): unused, kept for the common signature.

    Returns:
        ``(x, f_hist, evaluations)``: the values of ``f`` start at the starting point and
        follow each successful line search.

    A failed line search restarts along the steepest descent; two failures in a row
    stop the run.

    Examples::

        >>> def rosenbrock(x):
        ...     a, b = float(x[0]), float(x[1])
        ...     f = (1 - a) ** 2 + 100 * (b - a * a) ** 2
        ...     g = torch.tensor([-2 * (1 - a) - 400 * a * (b - a * a), 200 * (b - a * a)],
        ...                      dtype=torch.float64)
        ...     return f, g
        >>> x, f_hist, _ = optim.cg(rosenbrock, torch.zeros(2, dtype=torch.float64),
        ...                         {"maxEval": 100})
        >>> f_hist[-1] < 1e-10
        True
    """
    config, _ = config_and_state(config, state)
    rho = config.get("rho", 0.01)
    sig = config.get("sig", 0.5)
    interp = config.get("int", 0.1)
    ext = config.get("ext", 3.0)
    max_iter = config.get("maxIter", 20)
    ratio = config.get("ratio", 100)
    max_eval = config.get("maxEval", max_iter * 1.25)

    run = _Run(opfunc, x, max_eval)
    f1, df1 = run.evaluate()
    f_hist = [f1]
    s = df1.neg()  # search direction
    d1 = -float(s.dot(s))  # slope along it
    z1 = 1.0 / (1 - d1)  # first step
    failed_before = False

    while run.evaluations < max_eval:
        x0, f0, df0 = x.clone(), f1, df1.clone()
        x.add_(s, alpha=z1)
        f2, df2 = run.evaluate()
        d2 = float(df2.dot(s))
        f3, d3, z3 = f1, d1, -z1  # the third point starts at the first
        budget = min(max_iter, max_eval - run.evaluations)
        success, limit = False, -1.0
        while True:
            # interpolate while the point is too far (not enough decrease or too steep)
            while (f2 > f1 + z1 * rho * d1 or d2 > -sig * d1) and budget > 0:
                limit = z1
                if f2 > f1:
                    z2 = z3 - (0.5 * d3 * z3 * z3) / (d3 * z3 + f2 - f3)  # quadratic fit
                else:
                    a = 6 * (f2 - f3) / z3 + 3 * (d2 + d3)  # cubic fit
                    b = 3 * (f3 - f2) - z3 * (d3 + 2 * d2)
                    disc = b * b - a * d2 * z3 * z3
                    z2 = (math.sqrt(disc) - b) / a if disc >= 0 and a else float("nan")
                if not _finite(z2):
                    z2 = z3 / 2
                z2 = max(min(z2, interp * z3), (1 - interp) * z3)
                z1 += z2
                x.add_(s, alpha=z2)
                f2, df2 = run.evaluate()
                budget -= 1
                d2 = float(df2.dot(s))
                z3 -= z2
            if f2 > f1 + z1 * rho * d1 or d2 > -sig * d1:
                break  # the line search failed
            if d2 > sig * d1:
                success = True
                break
            if budget == 0:
                break
            # extrapolate with a cubic fit, within the limits
            a = 6 * (f2 - f3) / z3 + 3 * (d2 + d3)
            b = 3 * (f3 - f2) - z3 * (d3 + 2 * d2)
            disc = b * b - a * d2 * z3 * z3
            z2 = -d2 * z3 * z3 / (b + math.sqrt(disc)) if disc >= 0 else float("nan")
            if not _finite(z2) or z2 < 0:
                z2 = z1 * (ext - 1) if limit < -0.5 else (limit - z1) / 2
            elif limit > -0.5 and z2 + z1 > limit:
                z2 = (limit - z1) / 2
            elif limit < -0.5 and z2 + z1 > z1 * ext:
                z2 = z1 * (ext - 1)
            elif z2 < -z3 * interp:
                z2 = -z3 * interp
            elif limit > -0.5 and z2 < (limit - z1) * (1 - interp):
                z2 = (limit - z1) * (1 - interp)
            f3, d3, z3 = f2, d2, -z2
            z1 += z2
            x.add_(s, alpha=z2)
            f2, df2 = run.evaluate()
            budget -= 1
            d2 = float(df2.dot(s))

        if success:
            f1 = f2
            f_hist.append(f1)
            beta = (float(df2.dot(df2)) - float(df2.dot(df1))) / float(df1.dot(df1))
            s.mul_(beta).sub_(df2)  # Polak-Ribiere
            df1 = df2
            d2 = float(df1.dot(s))
            if d2 > 0:  # not a descent direction: restart along the gradient
                s = df1.neg()
                d2 = -float(s.dot(s))
            z1 *= min(ratio, d1 / (d2 - 1e-320))
            d1 = d2
            failed_before = False
        else:
            x.copy_(x0)
            f1, df1 = f0, df0
            if failed_before or run.evaluations >= max_eval:
                break
            s = df1.neg()
            d1 = -float(s.dot(s))
            z1 = 1.0 / (1 - d1)
            failed_before = True
    return x, f_hist, run.evaluations
