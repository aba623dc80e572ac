"""L-BFGS with an optional strong-Wolfe line search.

Vectors (gradients, directions, the curvature history) stay on the
parameters' device as flat tensors; losses, dot products and step lengths
are read on the host, where the iteration's branches are taken (as in
PyTorch, whose algorithm this follows step for step).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ..graph.grad_mode import enable_grad, no_grad
from ..ops.creation import zeros
from ..ops.layout.copies import cat
from ..tensor import Tensor
from ..trace_state import state as tracing
from .optimizer import Optimizer, ParamsT

Objective = Callable[[list[Tensor], float, Tensor], tuple[float, Tensor]]


class LBFGS(Optimizer):
    """L-BFGS, as in PyTorch: up to ``max_iter`` quasi-Newton iterations per :meth:`step`.

    Only one parameter group is supported; every parameter must be on one
    device. :meth:`step` needs a closure that clears the gradients, computes
    the loss, calls ``backward()`` and returns the loss.

    Args:
        params: the parameters (one group).
        lr: step length (the first iteration scales it by ``min(1, 1 / |g|_1)``).
        max_iter: iterations per step.
        max_eval: closure evaluations per step (``max_iter * 5 // 4`` by default).
        tolerance_grad: stop when ``max |g|`` is at most this.
        tolerance_change: stop when the loss or the parameters change less than this.
        history_size: number of curvature pairs kept.
        line_search_fn: None (a fixed step of ``lr``) or ``"strong_wolfe"``.

    Example:
        >>> w = gt.tensor([1.0, -2.0], requires_grad=True)
        >>> opt = gt.optim.LBFGS([w], line_search_fn="strong_wolfe")
        >>> def closure():
        ...     opt.zero_grad(); loss = ((w - 3) ** 2).sum(); loss.backward(); return loss
        >>> _ = opt.step(closure); [round(v, 4) for v in w.tolist()]
        [3.0, 3.0]
    """

    def __init__(self, params: ParamsT, lr: float = 1.0, max_iter: int = 20,
                 max_eval: int | None = None, tolerance_grad: float = 1e-7,
                 tolerance_change: float = 1e-9, history_size: int = 100,
                 line_search_fn: str | None = None) -> None:
        if lr < 0.0:
            raise ValueError(f"[LBFGS] invalid learning rate {lr}")
        if line_search_fn not in (None, "strong_wolfe"):
            raise ValueError(f"[LBFGS] line_search_fn must be None or 'strong_wolfe', got "
                             f"{line_search_fn!r}")
        super().__init__(params, {"lr": lr, "max_iter": max_iter,
                                  "max_eval": max_iter * 5 // 4 if max_eval is None else max_eval,
                                  "tolerance_grad": tolerance_grad,
                                  "tolerance_change": tolerance_change,
                                  "history_size": history_size,
                                  "line_search_fn": line_search_fn})
        if len(self.param_groups) != 1:
            raise ValueError("[LBFGS] doesn't support per-parameter options (parameter groups)")
        self._params: list[Tensor] = self.param_groups[0]["params"]

    def add_param_group(self, group: dict[str, Any]) -> None:
        """Add the one parameter group (a second raises ``ValueError``)."""
        if self.param_groups:
            raise ValueError("[LBFGS] doesn't support per-parameter options (parameter groups)")
        super().add_param_group(group)

    # -- flat views of the parameters ------------------------------------------------------
    def _flat_grad(self) -> Tensor:
        return cat([zeros(p.numel(), dtype=p.dtype, device=p.device) if p.grad is None
                    else p.grad.reshape(-1) for p in self._params])

    def _add_grad(self, step: float, update: Tensor) -> None:
        offset = 0
        for p in self._params:
            n = p.numel()
            p.add_(update[offset:offset + n].reshape(p.shape), alpha=step)
            offset += n

    def _evaluate_along(self, closure: Callable[[], Any], x: list[Tensor], t: float,
                        d: Tensor) -> tuple[float, Tensor]:
        """The loss and flat gradient at ``x + t * d``; the parameters are put back to ``x``."""
        self._add_grad(t, d)
        loss = float(closure())
        flat_grad = self._flat_grad()
        for p, saved in zip(self._params, x, strict=True):
            p.copy_(saved)
        return loss, flat_grad

    def step(self, closure: Callable[[], Any]) -> Any:  # type: ignore[override]
        """Run up to ``max_iter`` iterations; return the loss of the closure's first call.

        Example:
            >>> w = gt.tensor([1.0, -2.0], requires_grad=True)
            >>> opt = gt.optim.LBFGS([w])
            >>> def closure():
            ...     opt.zero_grad(); loss = ((w - 3) ** 2).sum(); loss.backward(); return loss
            >>> round(float(opt.step(closure)), 4)  # the loss at the starting point
            29.0
        """
        trace = tracing.trace
        if trace is not None:
            self._traced_update(self.param_groups[0], trace)  # raises: LBFGS runs eagerly

        def evaluate() -> Any:
            with enable_grad():
                return closure()

        with no_grad():
            return self._run(evaluate)

    def _run(self, closure: Callable[[], Any]) -> Any:
        group = self.param_groups[0]
        lr, max_iter, max_eval = float(group["lr"]), group["max_iter"], group["max_eval"]
        tolerance_change, history_size = group["tolerance_change"], group["history_size"]
        state = self.state.setdefault(self._params[0], {})
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)

        orig_loss = closure()
        loss = float(orig_loss)
        current_evals = 1
        state["func_evals"] += 1
        flat_grad = self._flat_grad()
        if _max_abs(flat_grad) <= group["tolerance_grad"]:
            return orig_loss

        d, t = state.get("d"), state.get("t")
        old_dirs, old_stps, ro = state.get("old_dirs"), state.get("old_stps"), state.get("ro")
        h_diag, prev_flat_grad = state.get("H_diag"), state.get("prev_flat_grad")
        prev_loss = state.get("prev_loss")

        n_iter = 0
        while n_iter < max_iter:
            n_iter += 1
            state["n_iter"] += 1
            if state["n_iter"] == 1:
                d = -flat_grad
                old_dirs, old_stps, ro, h_diag = [], [], [], 1.0
            else:
                y = flat_grad - prev_flat_grad
                s = d * t
                ys = _dot(y, s)
                if ys > 1e-10:
                    if len(old_dirs) == history_size:
                        old_dirs.pop(0)
                        old_stps.pop(0)
                        ro.pop(0)
                    old_dirs.append(y)
                    old_stps.append(s)
                    ro.append(1.0 / ys)
                    h_diag = ys / _dot(y, y)
                d = _two_loop(-flat_grad, old_dirs, old_stps, ro, h_diag,
                              state.setdefault("al", [0.0] * history_size))

            if prev_flat_grad is None:
                prev_flat_grad = flat_grad.clone()
            else:
                prev_flat_grad.copy_(flat_grad)
            prev_loss = loss

            if state["n_iter"] == 1:
                t = min(1.0, 1.0 / float(flat_grad.abs().sum())) * lr
            else:
                t = lr
            gtd = _dot(flat_grad, d)
            if gtd > -tolerance_change:
                break

            ls_func_evals = 0
            if group["line_search_fn"] is not None:
                x_init = [p.clone() for p in self._params]
                loss, flat_grad, t, ls_func_evals = _strong_wolfe(
                    lambda x, step, direction: self._evaluate_along(closure, x, step,
                                                                     direction),
                    x_init, t, d, loss, flat_grad, gtd, tolerance_change=tolerance_change,
                    max_ls=max_eval - current_evals)
                self._add_grad(t, d)
                opt_cond = _max_abs(flat_grad) <= group["tolerance_grad"]
            else:
                self._add_grad(t, d)
                opt_cond = False
                if n_iter != max_iter:
                    loss = float(closure())
                    flat_grad = self._flat_grad()
                    opt_cond = _max_abs(flat_grad) <= group["tolerance_grad"]
                    ls_func_evals = 1
            current_evals += ls_func_evals
            state["func_evals"] += ls_func_evals

            if (n_iter == max_iter or current_evals >= max_eval or opt_cond
                    or _max_abs(d * t) <= tolerance_change
                    or abs(loss - prev_loss) < tolerance_change):
                break

        state.update({"d": d, "t": t, "old_dirs": old_dirs, "old_stps": old_stps, "ro": ro,
                      "H_diag": h_diag, "prev_flat_grad": prev_flat_grad,
                      "prev_loss": prev_loss})
        return orig_loss


def _dot(a: Tensor, b: Tensor) -> float:
    return float((a * b).sum())


def _max_abs(a: Tensor) -> float:
    return float(a.abs().max())


def _two_loop(q: Tensor, old_dirs: list[Tensor], old_stps: list[Tensor], ro: list[float],
              h_diag: float, al: list[float]) -> Tensor:
    """The L-BFGS two-loop recursion: the inverse-Hessian estimate applied to ``q``."""
    for i in range(len(old_dirs) - 1, -1, -1):
        al[i] = _dot(old_stps[i], q) * ro[i]
        q.add_(old_dirs[i], alpha=-al[i])
    r = q.mul_(h_diag)
    for i in range(len(old_dirs)):
        be_i = _dot(old_dirs[i], r) * ro[i]
        r.add_(old_stps[i], alpha=al[i] - be_i)
    return r


def _cubic_interpolate(x1: float, f1: float, g1: float, x2: float, f2: float, g2: float,
                       bounds: tuple[float, float] | None = None) -> float:
    """The minimizer of the cubic through two points with their slopes, kept in ``bounds``."""
    lo, hi = bounds if bounds is not None else (min(x1, x2), max(x1, x2))
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1**2 - g1 * g2
    if d2_square < 0:
        return (lo + hi) / 2.0
    d2 = math.sqrt(d2_square)
    if x1 <= x2:
        min_pos = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
    else:
        min_pos = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
    return min(max(min_pos, lo), hi)


def _strong_wolfe(obj_func: Objective, x: list[Tensor], t: float, d: Tensor, f: float,
                  g: Tensor, gtd: float, c1: float = 1e-4, c2: float = 0.9,
                  tolerance_change: float = 1e-9,
                  max_ls: int = 25) -> tuple[float, Tensor, float, int]:
    """Find a step along ``d`` that meets the strong Wolfe conditions (bracket, then zoom).

    Returns the loss, flat gradient and step found, and the number of evaluations.
    """
    d_norm = _max_abs(d)
    g = g.clone()
    f_new, g_new = obj_func(x, t, d)
    ls_func_evals = 1
    gtd_new = _dot(g_new, d)

    # bracketing phase
    t_prev, f_prev, g_prev, gtd_prev = 0.0, f, g, gtd
    done = False
    ls_iter = 0
    bracket: list[float] = []
    bracket_f: list[float] = []
    bracket_g: list[Tensor] = []
    bracket_gtd: list[float] = []
    while ls_iter < max_ls:
        if f_new > f + c1 * t * gtd or (ls_iter > 1 and f_new >= f_prev):
            bracket, bracket_f = [t_prev, t], [f_prev, f_new]
            bracket_g, bracket_gtd = [g_prev, g_new.clone()], [gtd_prev, gtd_new]
            break
        if abs(gtd_new) <= -c2 * gtd:
            bracket, bracket_f, bracket_g = [t], [f_new], [g_new]
            done = True
            break
        if gtd_new >= 0:
            bracket, bracket_f = [t_prev, t], [f_prev, f_new]
            bracket_g, bracket_gtd = [g_prev, g_new.clone()], [gtd_prev, gtd_new]
            break
        # extrapolate
        tmp = t
        t = _cubic_interpolate(t_prev, f_prev, gtd_prev, t, f_new, gtd_new,
                               bounds=(t + 0.01 * (t - t_prev), t * 10))
        t_prev, f_prev, g_prev, gtd_prev = tmp, f_new, g_new.clone(), gtd_new
        f_new, g_new = obj_func(x, t, d)
        ls_func_evals += 1
        gtd_new = _dot(g_new, d)
        ls_iter += 1
    if ls_iter == max_ls:  # reached the maximum number of evaluations
        bracket, bracket_f, bracket_g = [0.0, t], [f, f_new], [g, g_new]

    # zoom phase: a point satisfying the criteria, or a bracket too small to continue
    insuf_progress = False
    low_pos, high_pos = (0, 1) if bracket_f[0] <= bracket_f[-1] else (1, 0)
    while not done and ls_iter < max_ls:
        if abs(bracket[1] - bracket[0]) * d_norm < tolerance_change:
            break
        t = _cubic_interpolate(bracket[0], bracket_f[0], bracket_gtd[0], bracket[1],
                               bracket_f[1], bracket_gtd[1])
        # too close to a bound, or out of the bracket: step away from the bound after two tries
        eps = 0.1 * (max(bracket) - min(bracket))
        if min(max(bracket) - t, t - min(bracket)) < eps:
            if insuf_progress or t >= max(bracket) or t <= min(bracket):
                if abs(t - max(bracket)) < abs(t - min(bracket)):
                    t = max(bracket) - eps
                else:
                    t = min(bracket) + eps
                insuf_progress = False
            else:
                insuf_progress = True
        else:
            insuf_progress = False

        f_new, g_new = obj_func(x, t, d)
        ls_func_evals += 1
        gtd_new = _dot(g_new, d)
        ls_iter += 1

        if f_new > f + c1 * t * gtd or f_new >= bracket_f[low_pos]:
            # Armijo condition not met, or not lower than the lowest point
            bracket[high_pos], bracket_f[high_pos] = t, f_new
            bracket_g[high_pos], bracket_gtd[high_pos] = g_new.clone(), gtd_new
            low_pos, high_pos = (0, 1) if bracket_f[0] <= bracket_f[1] else (1, 0)
        else:
            if abs(gtd_new) <= -c2 * gtd:
                done = True
            elif gtd_new * (bracket[high_pos] - bracket[low_pos]) >= 0:
                bracket[high_pos], bracket_f[high_pos] = bracket[low_pos], bracket_f[low_pos]
                bracket_g[high_pos] = bracket_g[low_pos]
                bracket_gtd[high_pos] = bracket_gtd[low_pos]
            bracket[low_pos], bracket_f[low_pos] = t, f_new
            bracket_g[low_pos], bracket_gtd[low_pos] = g_new.clone(), gtd_new

    return bracket_f[low_pos], bracket_g[low_pos], bracket[low_pos], ls_func_evals
