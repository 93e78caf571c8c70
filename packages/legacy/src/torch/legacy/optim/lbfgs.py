"""Limited-memory BFGS over a flat parameter vector."""

from __future__ import annotations

from ._common import config_and_state

__all__ = ["lbfgs"]


def _direction(g, history, h_diag):
    """The two-loop recursion: ``-H g`` for the inverse-Hessian estimate built from the
    stored (step, gradient change) pairs, starting from ``h_diag * I``."""
    q = g.neg()
    rhos = [1.0 / float(y.dot(s)) for s, y in history]
    alphas = []
    for (s, y), rho in zip(reversed(history), reversed(rhos)):
        alpha = float(s.dot(q)) * rho
        q.add_(y, alpha=-alpha)
        alphas.append(alpha)
    r = q.mul_(h_diag)
    for (s, y), rho, alpha in zip(history, rhos, reversed(alphas)):
        beta = float(y.dot(r)) * rho
        r.add_(s, alpha=alpha - beta)
    return r


def _remember(state, g, n_correction):
    """Store the last step and gradient change when the curvature ``y.s`` is positive,
    keeping at most ``n_correction`` pairs; update the initial Hessian scale."""
    y = g.sub(state["g_old"])
    s = state["d"].mul(state["t"])
    ys = float(y.dot(s))
    if ys > 1e-10:
        history = state["history"]
        if len(history) == n_correction:
            history.pop(0)
        history.append((s, y))
        state["Hdiag"] = ys / float(y.dot(y))


def lbfgs(opfunc, x, config=None, state=None):
    """Run up to ``maxIter`` L-BFGS iterations from ``x`` (changed in place).

    Without a ``lineSearch`` each iteration moves by a fixed step ``learningRate`` along
    the L-BFGS direction (the first iteration of a fresh ``state`` by
    ``min(1, 1/|g|_1) * learningRate``). The memory lives in ``state``, so further calls
    continue the same run.

    Args:
        opfunc (callable): ``opfunc(x) -> (f(x), df/dx)``.
        x (Tensor): the starting point.
        config (dict, optional): ``maxIter`` (``20``), ``maxEval`` (``maxIter * 1.25``),
            ``tolFun`` (``1e-5``: stop when the summed ``|g|`` is below it), ``tolX``
            (``1e-9``: stop when a step or the change of ``f`` is below it),
            ``nCorrection`` (``100``: pairs kept), ``learningRate`` (``1``),
            ``lineSearch`` (a callable ``(opfunc, x, t, d, f, g, gtd, lineSearchOptions)
            -> (f, g, x, t, evaluations)``; none by default), ``lineSearchOptions``.
        state (dict, optional): ``funcEval``, ``nIter`` and the memory.

    Returns:
        ``(x, f_hist, evaluations)``: the final point, the values of ``f`` seen (the
        first at the starting point) and the number of evaluations of this call.

    Examples::

        >>> target = torch.tensor([1.0, -3.0], dtype=torch.float64)
        >>> bowl = lambda x: (float(((x - target) ** 2).sum()), 2 * (x - target))
        >>> x, f_hist, _ = optim.lbfgs(bowl, torch.zeros(2, dtype=torch.float64))
        >>> torch.allclose(x, target), f_hist[-1] < 1e-12
        (True, True)
    """
    config, state = config_and_state(config, state)
    max_iter = config.get("maxIter", 20)
    max_eval = config.get("maxEval", max_iter * 1.25)
    tol_fun = config.get("tolFun", 1e-5)
    tol_x = config.get("tolX", 1e-9)
    n_correction = config.get("nCorrection", 100)
    line_search = config.get("lineSearch")
    lr = config.get("learningRate", 1)
    state.setdefault("funcEval", 0)
    state.setdefault("nIter", 0)

    f, g = opfunc(x)
    f_hist = [f]
    evaluations = 1
    state["funcEval"] += 1
    if float(g.abs().sum()) <= tol_fun:
        return x, f_hist, evaluations

    n_iter = 0
    while n_iter < max_iter:
        n_iter += 1
        state["nIter"] += 1
        if state["nIter"] == 1:
            state["d"] = g.neg()
            state["history"] = []
            state["Hdiag"] = 1.0
        else:
            _remember(state, g, n_correction)
            state["d"] = _direction(g, state["history"], state["Hdiag"])
        state["g_old"] = g.clone()
        f_old = f
        d = state["d"]

        gtd = float(g.dot(d))
        if gtd > -tol_x:  # no descent along d
            break
        if state["nIter"] == 1:
            t = min(1.0, 1.0 / float(g.abs().sum())) * lr
        else:
            t = lr

        if line_search is not None:
            f, g, x, t, ls_evals = line_search(
                opfunc, x, t, d, f, g, gtd, config.get("lineSearchOptions")
            )
            f_hist.append(f)
        else:
            x.add_(d, alpha=t)
            ls_evals = 0
            if n_iter != max_iter:  # the last iteration's value is not needed
                f, g = opfunc(x)
                ls_evals = 1
                f_hist.append(f)
        state["t"] = t
        evaluations += ls_evals
        state["funcEval"] += ls_evals

        if n_iter == max_iter or evaluations >= max_eval:
            break
        if float(g.abs().sum()) <= tol_fun:
            break
        if float(d.mul(t).abs().sum()) <= tol_x or abs(f - f_old) < tol_x:
            break
    return x, f_hist, evaluations
