"""Adadelta, Adamax, NAdam, RAdam, Rprop, ASGD and LBFGS against torch.optim, eager and
compiled."""

from __future__ import annotations

import io
import warnings

import numpy as np
import pytest

import gtensor as gt
import gtensor.nn.functional as F

torch = pytest.importorskip("torch")

STEPS = 7  # RAdam takes its rectified branch from step 6 on

CASES = [
    ("Adadelta", {}),
    ("Adadelta", {"lr": 0.5, "rho": 0.8, "eps": 1e-4, "weight_decay": 0.1, "maximize": True}),
    ("Adamax", {"lr": 0.01}),
    ("Adamax", {"lr": 0.02, "betas": (0.8, 0.9), "weight_decay": 0.1, "maximize": True}),
    ("NAdam", {"lr": 0.01}),
    ("NAdam", {"lr": 0.01, "weight_decay": 0.1, "momentum_decay": 0.05}),
    ("NAdam", {"lr": 0.01, "weight_decay": 0.1, "decoupled_weight_decay": True,
               "maximize": True}),
    ("RAdam", {"lr": 0.01}),
    ("RAdam", {"lr": 0.01, "betas": (0.8, 0.9), "weight_decay": 0.1}),
    ("RAdam", {"lr": 0.01, "weight_decay": 0.1, "decoupled_weight_decay": True,
               "maximize": True}),
    ("Rprop", {}),
    ("Rprop", {"lr": 0.05, "etas": (0.3, 1.5), "step_sizes": (1e-3, 0.08), "maximize": True}),
    ("ASGD", {}),
    ("ASGD", {"lr": 0.05, "lambd": 0.1, "alpha": 0.5, "t0": 2, "weight_decay": 0.1,
              "maximize": True}),
]


def _value(x):
    if isinstance(x, gt.Tensor):
        return x.detach().cpu().numpy()
    if isinstance(x, torch.Tensor):
        return x.detach().numpy()
    return np.asarray(x)


def _steps(make, wrap, p0, grads):
    p = wrap(p0)
    opt = make([p])
    for g in grads:
        p.grad = wrap(g)
        opt.step()
    return p, opt


@pytest.mark.parametrize("name, kwargs", CASES)
def test_update_sequence_and_state_match_torch(name, kwargs, rng) -> None:
    p0 = rng.standard_normal((4, 5)).astype(np.float32)
    grads = [rng.standard_normal((4, 5)).astype(np.float32) for _ in range(STEPS)]
    ours, opt = _steps(lambda ps: getattr(gt.optim, name)(ps, **kwargs),
                       lambda a: gt.nn.Parameter(gt.tensor(a)), p0, grads)
    ref, ref_opt = _steps(lambda ps: getattr(torch.optim, name)(ps, **kwargs),
                          lambda a: torch.nn.Parameter(torch.tensor(a)), p0, grads)
    np.testing.assert_allclose(_value(ours), _value(ref), rtol=1e-5, atol=1e-6)
    state, ref_state = opt.state[ours], ref_opt.state[ref]
    assert state.keys() == ref_state.keys() and state["step"] == STEPS
    for key in ref_state:
        np.testing.assert_allclose(_value(state[key]), _value(ref_state[key]), rtol=1e-5,
                                   atol=1e-6, err_msg=key)


def test_argument_checks() -> None:
    p = [gt.nn.Parameter(gt.ones(1))]
    with pytest.raises(ValueError, match=r"\[Adadelta\] invalid rho 1.5"):
        gt.optim.Adadelta(p, rho=1.5)
    with pytest.raises(ValueError, match=r"\[NAdam\] invalid momentum_decay -1"):
        gt.optim.NAdam(p, momentum_decay=-1)
    with pytest.raises(ValueError, match=r"\[RAdam\] invalid beta parameter at index 0"):
        gt.optim.RAdam(p, betas=(1.0, 0.9))
    with pytest.raises(ValueError, match=r"\[Rprop\] invalid eta values: 0.5, 0.9"):
        gt.optim.Rprop(p, etas=(0.5, 0.9))
    with pytest.raises(ValueError, match=r"\[ASGD\] invalid learning rate"):
        gt.optim.ASGD(p, lr=-1.0)
    with pytest.raises(ValueError, match="line_search_fn"):
        gt.optim.LBFGS(p, line_search_fn="backtracking")
    with pytest.raises(ValueError, match="parameter groups"):
        gt.optim.LBFGS([{"params": p}, {"params": [gt.nn.Parameter(gt.ones(1))]}])
    assert gt.optim.LBFGS(p, max_iter=8).defaults["max_eval"] == 10


def _quadratic(lib, rng):
    """A convex quadratic in two parameters (checks the flat views' offsets)."""
    m = rng.standard_normal((5, 5))
    a, b = m @ m.T + np.eye(5), rng.standard_normal(5)
    a_t, b_t = lib.tensor(a), lib.tensor(b)

    def loss(ps):
        x = lib.cat([ps[0], ps[1].reshape(-1)])
        return 0.5 * (x * (a_t @ x)).sum() - (b_t * x).sum()
    return [rng.standard_normal(2), rng.standard_normal((3, 1))], loss


def _rosenbrock(lib, rng):
    def loss(ps):
        x = ps[0]
        return (100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2).sum()
    return [np.array([-1.5, 2.0, -0.5, 1.0])], loss


@pytest.mark.parametrize("problem, kwargs", [
    (_quadratic, {"lr": 0.5, "max_iter": 6}),
    (_quadratic, {"history_size": 2, "line_search_fn": "strong_wolfe"}),
    (_rosenbrock, {"max_iter": 30, "line_search_fn": "strong_wolfe"}),
])
def test_lbfgs_matches_torch(problem, kwargs) -> None:
    results = []
    for lib in (gt, torch):
        p0, loss = problem(lib, np.random.default_rng(5))
        params = [lib.nn.Parameter(lib.tensor(p)) for p in p0]
        opt = (gt.optim if lib is gt else torch.optim).LBFGS(params, **kwargs)

        def closure(opt=opt, params=params, loss=loss):
            opt.zero_grad()
            value = loss(params)
            value.backward()
            return value

        losses = [float(opt.step(closure).detach()) for _ in range(3)]
        state = opt.state[params[0]]
        results.append((losses, [_value(p) for p in params], state["func_evals"],
                        state["n_iter"]))
    (losses, params, evals, iters), (t_losses, t_params, t_evals, t_iters) = results
    np.testing.assert_allclose(losses, t_losses, rtol=1e-9)
    for p, t in zip(params, t_params, strict=True):
        np.testing.assert_allclose(p, t, rtol=1e-7, atol=1e-10)
    assert (evals, iters) == (t_evals, t_iters) and losses[-1] < losses[0]


def _lbfgs_quadratic(**kwargs):
    target = gt.tensor([1.0, -2.0, 0.5], dtype=gt.float64)
    w = gt.nn.Parameter(gt.zeros(3, dtype=gt.float64))
    opt = gt.optim.LBFGS([w], **kwargs)

    def step(scale):
        def closure():
            opt.zero_grad()
            loss = ((w - target) ** 2 * scale).sum()
            loss.backward()
            return loss
        return opt.step(closure)
    return w, step


def test_lbfgs_needs_a_closure_and_runs_eagerly_when_compiled() -> None:
    w, step = _lbfgs_quadratic(max_iter=2)
    with pytest.raises(TypeError):
        gt.optim.LBFGS([w]).step()  # type: ignore[call-arg]
    ref, ref_step = _lbfgs_quadratic(max_iter=2)
    compiled = gt.compile(step)
    scale = gt.tensor([1.0, 3.0, 10.0], dtype=gt.float64)
    with pytest.warns(UserWarning, match="LBFGS.step is not traced"):
        compiled(scale)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compiled(scale)
    for _ in range(2):
        ref_step(scale)
    np.testing.assert_allclose(_value(w), _value(ref), rtol=1e-12)
    assert not np.allclose(_value(w), 0.0)


@pytest.mark.parametrize("name, kwargs", [CASES[6], CASES[13], ("LBFGS", {"max_iter": 2})])
def test_state_dict_resume_matches_uninterrupted(name, kwargs, rng) -> None:
    target = rng.standard_normal(4)

    def run(opt, w, steps):
        def closure():
            opt.zero_grad()
            loss = ((w - gt.tensor(target)) ** 4).sum()
            loss.backward()
            return loss
        for _ in range(steps):
            opt.step(closure)

    def fresh(p0):
        w = gt.nn.Parameter(gt.tensor(p0))
        return w, getattr(gt.optim, name)([w], **kwargs)

    whole, opt = fresh(np.zeros(4))
    run(opt, whole, 6)
    half, opt = fresh(np.zeros(4))
    run(opt, half, 3)
    buf = io.BytesIO()
    gt.save(opt.state_dict(), buf)
    w, resumed = fresh(_value(half))
    resumed.load_state_dict(gt.load(io.BytesIO(buf.getvalue())))
    run(resumed, w, 3)
    np.testing.assert_allclose(_value(w), _value(whole), rtol=1e-12)


TRACED = dict(CASES)  # the last case of each optimizer: the most options


@pytest.mark.parametrize("name, kwargs", TRACED.items(), ids=list(TRACED))
def test_compiled_training_step_equals_eager(name, kwargs) -> None:
    gt.manual_seed(0)
    w0 = gt.randn(6, 3)
    weights = [gt.nn.Parameter(w0.clone()) for _ in range(2)]  # one tensor: few kernels to build
    opts = [getattr(gt.optim, name)([w], **kwargs) for w in weights]
    scheds = [gt.optim.lr_scheduler.StepLR(o, 2, 0.5) for o in opts]
    x, y = gt.randn(5, 6), gt.tensor([0, 1, 2, 1, 0])

    def step(w, opt):
        def run(x, y):
            opt.zero_grad()
            loss = F.cross_entropy(x @ w, y)
            loss.backward()
            opt.step()
            return loss
        return run

    eager, compiled = step(weights[0], opts[0]), gt.compile(step(weights[1], opts[1]))
    for i in range(4):  # the first call makes the state eagerly, the second traces
        with warnings.catch_warnings():
            if i:
                warnings.simplefilter("error")
            np.testing.assert_allclose(_value(compiled(x, y)), _value(eager(x, y)), rtol=1e-5)
        for s in scheds:
            s.step()  # read afresh by the compiled step
    np.testing.assert_allclose(_value(weights[1]), _value(weights[0]), rtol=1e-4, atol=1e-6)
    for a, b in zip(opts[0].state.values(), opts[1].state.values(), strict=True):
        assert a.keys() == b.keys() and a["step"] == b["step"] == 4
        for key in a:
            np.testing.assert_allclose(_value(b[key]), _value(a[key]), rtol=1e-4, atol=1e-6)
    assert hasattr(next(iter(compiled._programs.values())), "kernels"), "ran eagerly"


def test_every_new_optimizer_steps_on_cuda_as_on_cpu(rng) -> None:
    p0 = rng.standard_normal(3).astype(np.float32)
    grads = [rng.standard_normal(3).astype(np.float32) for _ in range(2)]
    for name, kwargs in TRACED.items():
        got = [_value(_steps(lambda ps: getattr(gt.optim, name)(ps, **kwargs),
                             lambda a, d=device: gt.nn.Parameter(gt.tensor(a, device=d)),
                             p0, grads)[0]) for device in ("cpu", "cuda")]
        np.testing.assert_allclose(got[1], got[0], rtol=1e-5, atol=1e-7, err_msg=name)
    target = gt.tensor(p0, device="cuda")
    w = gt.nn.Parameter(gt.zeros(3, device="cuda"))
    opt = gt.optim.LBFGS([w], max_iter=3, line_search_fn="strong_wolfe")

    def closure():
        opt.zero_grad()
        loss = ((w - target) ** 2).sum()
        loss.backward()
        return loss

    opt.step(closure)
    assert w.device.type == "cuda"
    np.testing.assert_allclose(_value(w), p0, rtol=1e-4, atol=1e-5)
