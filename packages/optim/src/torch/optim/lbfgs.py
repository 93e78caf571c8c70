"""L-BFGS: limited-memory quasi-Newton steps, optionally with a strong-Wolfe line search."""

from __future__ import annotations

import torch

from ._common import as_float, check_min, options
from ._line_search import strong_wolfe
from .optimizer import Optimizer

__all__ = ["LBFGS"]


class LBFGS(Optimizer):
    """L-BFGS: each ``step(closure)`` runs up to ``max_iter`` iterations, each moving
    along the direction given by the two-loop recursion over the last ``history_size``
    curvature pairs. All parameters form one flat vector (one parameter group only).

    Args:
        params (iterable): tensors to optimize.
        lr (float): learning rate (the initial step length). Default: ``1``.
        max_iter (int): iterations per ``step``. Default: ``20``.
        max_eval (int): closure evaluations per ``step``.
            Default: ``max_iter * 5 // 4``.
        tolerance_grad (float): stop when the gradient's largest magnitude falls to it.
            Default: ``1e-7``.
        tolerance_change (float): stop when the step or the loss changes by less.
            Default: ``1e-9``.
        history_size (int): number of curvature pairs kept. Default: ``100``.
        line_search_fn (str): ``"strong_wolfe"`` or ``None`` (fixed step).
            Default: ``None``.

    Examples::

        >>> x = torch.tensor([3.0, -1.0])
        >>> def closure():
        ...     x.grad = 2 * (x - torch.tensor([1.0, 2.0]))
        ...     return float(((x - torch.tensor([1.0, 2.0])) ** 2).sum())
        >>> opt = torch.optim.LBFGS([x], line_search_fn="strong_wolfe")
        >>> loss = opt.step(closure)
        >>> [round(v, 4) for v in x.tolist()]
        [1.0, 2.0]
    """

    def __init__(
        self,
        params,
        lr=1,
        max_iter=20,
        max_eval=None,
        tolerance_grad=1e-7,
        tolerance_change=1e-9,
        history_size=100,
        line_search_fn=None,
    ):
        check_min("learning rate", lr)
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        defaults = options(
            locals(),
            "lr max_iter max_eval tolerance_grad tolerance_change history_size line_search_fn",
        )
        super().__init__(params, defaults)
        if len(self.param_groups) != 1:
            raise ValueError("LBFGS doesn't support per-parameter options (parameter groups)")
        self._params = self.param_groups[0]["params"]
        self._numel_cache = None

    # ------------------------------------------------------------ flat views

    def _flat_grad(self):
        views = []
        for p in self._params:
            if p.grad is None:
                views.append(torch.zeros(p.numel(), dtype=p.dtype))
            else:
                views.append(p.grad.reshape(-1))
        return torch.cat(views, 0)

    def _add_grad(self, step_size, update) -> None:
        offset = 0
        for p in self._params:
            numel = p.numel()
            p.add_(update[offset : offset + numel].view_as(p), alpha=as_float(step_size))
            offset += numel

    def _clone_params(self):
        return [p.clone() for p in self._params]

    def _set_params(self, values) -> None:
        for p, value in zip(self._params, values):
            p.copy_(value)

    def _directional_evaluate(self, closure, x, t, d):
        """Loss and flat gradient at ``x + t * d``; the parameters are restored to ``x``."""
        self._add_grad(t, d)
        loss = float(closure())
        flat_grad = self._flat_grad()
        self._set_params(x)
        return loss, flat_grad

    # ------------------------------------------------------------ the step

    @torch.no_grad()
    def step(self, closure):
        """Run up to ``max_iter`` L-BFGS iterations.

        Args:
            closure (callable): re-evaluates the model (setting the gradients) and
                returns the loss; it is called several times.
        """
        # every evaluation (the line search's and the next iteration's too) runs under
        # enable_grad: step itself runs without gradients
        closure = _with_grad_enabled(closure)
        group = self.param_groups[0]
        state = self.state[self._params[0]]
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)
        orig_loss = self._eval_closure(closure)
        state["func_evals"] += 1
        flat_grad = self._flat_grad()
        if flat_grad.abs().max() <= group["tolerance_grad"]:
            return orig_loss
        run = _Run(self, closure, group, state, float(orig_loss), flat_grad)
        run.iterate()
        run.save()
        return orig_loss


def _with_grad_enabled(closure):
    def evaluate():
        with torch.enable_grad():
            return closure()

    return evaluate


class _Run:
    """The iterations of one ``LBFGS.step``, with the history carried in ``state``."""

    def __init__(self, opt, closure, group, state, loss, flat_grad):
        self.opt, self.closure, self.group, self.state = opt, closure, group, state
        self.loss, self.flat_grad = loss, flat_grad
        self.evals = 1
        for key in ("d", "t", "old_dirs", "old_stps", "ro", "H_diag", "prev_flat_grad"):
            setattr(self, key, state.get(key))
        self.prev_loss = state.get("prev_loss")

    def save(self) -> None:
        for key in ("d", "t", "old_dirs", "old_stps", "ro", "H_diag", "prev_flat_grad"):
            self.state[key] = getattr(self, key)
        self.state["prev_loss"] = self.prev_loss

    def iterate(self) -> None:
        group, state = self.group, self.state
        lr = as_float(group["lr"])
        n_iter = 0
        while n_iter < group["max_iter"]:
            n_iter += 1
            state["n_iter"] += 1
            self._direction()
            if self.prev_flat_grad is None:
                self.prev_flat_grad = self.flat_grad.clone()
            else:
                self.prev_flat_grad.copy_(self.flat_grad)
            self.prev_loss = self.loss
            if state["n_iter"] == 1:
                self.t = min(1.0, 1.0 / self.flat_grad.abs().sum()) * lr
            else:
                self.t = lr
            gtd = self.flat_grad.dot(self.d)
            if gtd > -group["tolerance_change"]:
                break
            evals, optimal = self._move(gtd, n_iter)
            self.evals += evals
            state["func_evals"] += evals
            if self._converged(n_iter, optimal):
                break

    def _converged(self, n_iter: int, optimal) -> bool:
        group = self.group
        return bool(
            n_iter == group["max_iter"]
            or self.evals >= group["max_eval"]
            or optimal
            or self.d.mul(self.t).abs().max() <= group["tolerance_change"]
            or abs(self.loss - self.prev_loss) < group["tolerance_change"]
        )

    def _direction(self) -> None:
        """The search direction: steepest descent first, then the two-loop recursion."""
        if self.state["n_iter"] == 1:
            self.d = self.flat_grad.neg()
            self.old_dirs, self.old_stps, self.ro = [], [], []
            self.H_diag = 1
            return
        y = self.flat_grad.sub(self.prev_flat_grad)
        s = self.d.mul(self.t)
        ys = y.dot(s)
        if ys > 1e-10:
            if len(self.old_dirs) == self.group["history_size"]:
                self.old_dirs.pop(0)
                self.old_stps.pop(0)
                self.ro.pop(0)
            self.old_dirs.append(y)
            self.old_stps.append(s)
            self.ro.append(1.0 / ys)
            self.H_diag = ys / y.dot(y)
        self.d = self._two_loop()

    def _two_loop(self):
        count = len(self.old_dirs)
        if "al" not in self.state:
            self.state["al"] = [None] * self.group["history_size"]
        al = self.state["al"]
        q = self.flat_grad.neg()
        for i in range(count - 1, -1, -1):
            al[i] = self.old_stps[i].dot(q) * self.ro[i]
            q.add_(self.old_dirs[i], alpha=-as_float(al[i]))
        r = torch.mul(q, self.H_diag)
        for i in range(count):
            be_i = self.old_dirs[i].dot(r) * self.ro[i]
            r.add_(self.old_stps[i], alpha=as_float(al[i] - be_i))
        return r

    def _move(self, gtd, n_iter: int):
        """Step along ``d`` (line search or fixed step); returns the evaluations spent and
        whether the new gradient is below ``tolerance_grad``."""
        group, opt = self.group, self.opt
        search = group["line_search_fn"]
        if search is not None:
            if search != "strong_wolfe":
                raise RuntimeError("only 'strong_wolfe' is supported")
            x_init = opt._clone_params()

            def obj_func(x, t, d):
                return opt._directional_evaluate(self.closure, x, t, d)

            self.loss, self.flat_grad, self.t, evals = strong_wolfe(
                obj_func,
                x_init,
                self.t,
                self.d,
                self.loss,
                self.flat_grad,
                gtd,
                max_ls=group["max_eval"] - self.evals,
            )
            opt._add_grad(self.t, self.d)
            return evals, self.flat_grad.abs().max() <= group["tolerance_grad"]
        opt._add_grad(self.t, self.d)
        if n_iter == group["max_iter"]:
            return 0, False
        # the closure enables grad itself; float() runs under step's no_grad, where a loss
        # that requires grad converts without PyTorch's scalar-conversion warning
        self.loss = float(self.closure())
        self.flat_grad = opt._flat_grad()
        return 1, self.flat_grad.abs().max() <= group["tolerance_grad"]
