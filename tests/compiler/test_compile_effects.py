"""gt.compile of functions that write: in-place ops, .grad, backward() and optimizer steps."""

import warnings

import numpy as np
import pytest
from training_steps import training_step

import gtensor as gt
import gtensor.nn.functional as F
from gtensor import nn
from gtensor.errors import Untraceable


def _host(t):
    return t.detach().cpu().numpy()


def _strict():
    """Fail on any warning: a compiled call that ran eagerly warns."""
    return warnings.catch_warnings()


def test_ops_on_captured_tensors_only_are_traced_not_frozen(device):
    w = gt.ones(3, device=device)
    f = gt.compile(lambda x: x + w * 2 + w.sum(), fullgraph=True)
    x = gt.zeros(3, device=device)
    assert _host(f(x)).tolist() == [5.0] * 3
    w.fill_(5.0)  # w * 2 and w.sum() were computed by the trace, not once while tracing
    assert _host(f(x)).tolist() == [25.0] * 3


def test_in_place_writes_to_captured_tensors_and_arguments_replay(device):
    buf = gt.ones(3, device=device)

    @gt.compile(fullgraph=True)
    def decay(x):
        buf.mul_(0.5)
        return x + buf

    x = gt.zeros(3, device=device)
    assert _host(decay(x)).tolist() == [0.5] * 3
    assert _host(decay(x)).tolist() == [0.25] * 3
    assert _host(buf).tolist() == [0.25] * 3

    @gt.compile(fullgraph=True)
    def update(p, d):
        p.sub_(d * 0.5)
        return p

    p, d = gt.ones(2, 3, device=device), gt.ones(2, 3, device=device)
    version = p._version
    assert update(p, d) is p and update(p, d) is p
    np.testing.assert_allclose(_host(p), 0.0, atol=1e-7)
    assert p._version > version  # autograd sees the write
    with pytest.raises(Untraceable, match="shares memory"):
        update(p, p)  # aliased arguments: run eagerly, or raise with fullgraph


def test_in_place_write_of_a_transposed_read_of_itself(device):
    w = gt.arange(9.0, device=device).reshape(3, 3)
    expected = _host(w).T.copy()
    f = gt.compile(lambda x: w.copy_(w.t() + x), fullgraph=True)  # reads w out of place
    f(gt.zeros(3, 3, device=device))
    np.testing.assert_array_equal(_host(w), expected)


def test_temporaries_written_in_place_and_reading_unwritten_memory(device):
    @gt.compile(fullgraph=True)
    def f(x):
        out = gt.empty(2, 2, device=device)
        out.copy_(x)
        out.mul_(3.0)
        return out + gt.zeros(2, 2, device=device) + gt.tensor([1.0, 2.0], device=device)

    assert _host(f(gt.ones(2, 2, device=device))).tolist() == [[4.0, 5.0]] * 2
    with pytest.raises(Untraceable, match="empty"):
        gt.compile(lambda x: x + gt.empty(2, device=device), fullgraph=True)(
            gt.ones(2, device=device))


@pytest.mark.parametrize("reader", ["item", "tolist", "nonzero"])
def test_reading_data_while_tracing_runs_eagerly(reader, device):
    w = gt.ones(3, device=device)

    def f(x):
        if reader == "item":
            return x * w[0].item()
        if reader == "tolist":
            return x * w.tolist()[0]
        return x * w.nonzero().shape[0]  # a shape that depends on the data

    c = gt.compile(f)
    x = gt.ones(3, device=device)
    with pytest.warns(UserWarning, match="runs eagerly"):
        got = c(x)
    np.testing.assert_allclose(_host(got), _host(f(x)))


def test_random_draws_are_made_afresh_at_every_call(device):
    @gt.compile(fullgraph=True)
    def noisy(x):
        return F.dropout(x, 0.5) + gt.rand(4, device=device) + x.clone().normal_()

    def eager(x):
        return F.dropout(x, 0.5) + gt.rand(4, device=device) + x.clone().normal_()

    x = gt.ones(4, device=device)
    noisy(x)
    gt.manual_seed(7)
    first, second = _host(noisy(x)), _host(noisy(x))
    gt.manual_seed(7)
    np.testing.assert_allclose(first, _host(eager(x)), rtol=1e-6)  # the same stream, in order
    np.testing.assert_allclose(second, _host(eager(x)), rtol=1e-6)
    assert not np.allclose(first, second)


def _linear(device):
    gt.manual_seed(0)
    return nn.Linear(6, 3).to(device)


def _mlp(device):
    gt.manual_seed(0)
    return nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 3)).to(device)


def test_backward_inside_sets_and_accumulates_grads_as_eager(device):
    models = [_mlp("cpu"), _mlp(device)]  # eager on the cpu: the reference
    xs = [gt.randn(5, 6)]
    xs.append(xs[0].to(device))

    def step(model, zero):
        def run(x):
            if zero:
                model.zero_grad()
            loss = model(x).relu().mean()
            loss.backward()
            return loss
        return run

    for zero in (True, False):
        eager, compiled = step(models[0], zero), gt.compile(step(models[1], zero),
                                                            fullgraph=True)
        with _strict():
            warnings.simplefilter("error")
            for _ in range(3):
                np.testing.assert_allclose(_host(compiled(xs[1])), _host(eager(xs[0])),
                                           rtol=1e-5)
        for a, b in zip(models[0].parameters(), models[1].parameters(), strict=True):
            np.testing.assert_allclose(_host(b.grad), _host(a.grad), rtol=1e-5, atol=1e-7)
        assert len(compiled._programs) == 1
    models[1].zero_grad()  # changed outside: the guarded .grad makes the next call retrace
    models[0].zero_grad()
    eager(xs[0])
    compiled(xs[1])
    for a, b in zip(models[0].parameters(), models[1].parameters(), strict=True):
        np.testing.assert_allclose(_host(b.grad), _host(a.grad), rtol=1e-5, atol=1e-7)


def test_gradients_accumulate_into_arguments(device):
    def step(a, b):
        (a * b).relu().sum().backward()

    gt.manual_seed(3)
    one = [gt.randn(4, device=device).requires_grad_() for _ in range(2)]
    two = [t.detach().clone().requires_grad_() for t in one]
    compiled = gt.compile(step, fullgraph=True)
    for _ in range(3):
        step(*one)
        compiled(*two)
    for a, b in zip(one, two, strict=True):
        np.testing.assert_allclose(_host(b.grad), _host(a.grad), rtol=1e-6)


_OPTIMIZERS = {  # each variant covers its optimizer's plainer ones
    "momentum": ("SGD", {"lr": 0.1, "momentum": 0.9, "weight_decay": 0.01, "nesterov": True}),
    "adamw": ("AdamW", {"lr": 0.01, "weight_decay": 0.1}),
    "amsgrad": ("Adam", {"lr": 0.01, "amsgrad": True, "weight_decay": 0.01,
                         "maximize": True}),
    "rmsprop": ("RMSprop", {"lr": 0.01, "momentum": 0.5, "centered": True,
                            "weight_decay": 0.01}),
    "adagrad": ("Adagrad", {"lr": 0.1, "lr_decay": 0.01, "weight_decay": 0.01}),
}


# every optimizer on the cpu; on cuda (the simulator runs a kernel a thread at a time) the two
# that cover the rest: a momentum buffer, decoupled weight decay and the per-call scalars
_TRAINING = [(name, "cpu") for name in _OPTIMIZERS] + [("momentum", "cuda"), ("adamw", "cuda")]


@pytest.mark.parametrize(("name", "device"), _TRAINING)
def test_compiled_training_step_equals_eager(name, device):
    cls, options = _OPTIMIZERS[name]
    models = [_linear("cpu"), _linear(device)]  # eager on the cpu: the reference
    opts = [getattr(gt.optim, cls)(m.parameters(), **options) for m in models]
    scheds = [gt.optim.lr_scheduler.StepLR(o, 2, 0.5) for o in opts]
    x, y = gt.randn(5, 6), gt.tensor([0, 1, 2, 1, 0])

    eager = training_step(models[0], opts[0])
    compiled = gt.compile(training_step(models[1], opts[1]))
    with _strict():
        warnings.simplefilter("error")
        for _ in range(3):  # the first call runs eagerly (it makes the state), then traced
            np.testing.assert_allclose(_host(compiled(x.to(device), y.to(device))),
                                       _host(eager(x, y)), rtol=1e-5)
            for s in scheds:
                s.step()  # a new learning rate is read at the next call, not retraced
    for a, b in zip(models[0].parameters(), models[1].parameters(), strict=True):
        np.testing.assert_allclose(_host(b), _host(a), rtol=1e-4, atol=1e-6)
    for a, b in zip(opts[0].state.values(), opts[1].state.values(), strict=True):
        assert a.keys() == b.keys() and a.get("step") == b.get("step")
    program = next(iter(compiled._programs.values()))
    assert hasattr(program, "kernels"), "ran eagerly"


def test_changed_optimizer_options_retrace_and_untraced_optimizers_run_eagerly():
    model, device = _linear("cpu"), "cpu"
    opt = gt.optim.SGD(model.parameters(), lr=0.1, momentum=0.5)
    traced = []

    @gt.compile
    def step(x):
        traced.append(1)
        opt.zero_grad()
        model(x).sum().backward()
        opt.step()

    x = gt.randn(2, 6, device=device)
    for _ in range(3):
        step(x)
    # the first call's trace stops at the optimizer, which makes its state in the eager run
    # of that call; the second call is traced, the third replays
    assert len(traced) == 3
    opt.param_groups[0]["momentum"] = 0.9
    step(x)
    assert len(traced) == 4

    class Halving(gt.optim.Optimizer):  # a user's optimizer, with no traced update
        def __init__(self, params):
            super().__init__(params, {})

        def _update_group(self, group):
            for p, g, _ in self._with_grads(group):
                p.sub_(g * 0.5)

    own = Halving(model.parameters())

    @gt.compile
    def owntraining_step(x):
        own.zero_grad()
        model(x).sum().backward()
        own.step()

    owntraining_step(x)
    with pytest.warns(UserWarning, match="Halving.step is not traced"):
        owntraining_step(x)


def test_cnn_training_step_with_conv_pool_and_batch_norm_equals_eager(device):
    def cnn(dev):
        gt.manual_seed(1)
        # no conv bias: a batch norm follows, which makes its gradient rounding noise that
        # Adam would amplify into different steps
        return nn.Sequential(nn.Conv2d(1, 2, 3, padding=1, bias=False), nn.BatchNorm2d(2),
                             nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(8, 3)).to(dev)

    models = [cnn("cpu"), cnn(device)]
    opts = [gt.optim.Adam(m.parameters(), lr=0.01) for m in models]
    x, y = gt.randn(3, 1, 4, 4), gt.tensor([0, 2, 1])

    eager = training_step(models[0], opts[0])
    compiled = gt.compile(training_step(models[1], opts[1]), fullgraph=True)
    for _ in range(3):
        np.testing.assert_allclose(_host(compiled(x.to(device), y.to(device))),
                                   _host(eager(x, y)), rtol=1e-5)
    for a, b in zip(models[0].state_dict().values(), models[1].state_dict().values(),
                    strict=True):  # parameters and the running statistics
        np.testing.assert_allclose(_host(b), _host(a), rtol=1e-4, atol=1e-6)


def test_a_step_without_arguments_is_traced_from_the_tensors_it_reads(device):
    models = [_mlp("cpu"), _mlp(device)]
    opts = [gt.optim.SGD(m.parameters(), lr=0.1, momentum=0.9) for m in models]
    x, y = gt.randn(5, 6), gt.tensor([0, 1, 2, 1, 0])
    data = [(x, y), (x.to(device), y.to(device))]
    steps = [lambda k=k: training_step(models[k], opts[k])(*data[k]) for k in range(2)]
    compiled = gt.compile(steps[1], fullgraph=True)  # the step of gt.compile's docs
    for _ in range(3):
        np.testing.assert_allclose(_host(compiled()), _host(steps[0]()), rtol=1e-5)
    for a, b in zip(models[0].parameters(), models[1].parameters(), strict=True):
        np.testing.assert_allclose(_host(b), _host(a), rtol=1e-4, atol=1e-6)
    assert hasattr(next(iter(compiled._programs.values())), "kernels"), "ran eagerly"
    with pytest.raises(Untraceable, match="no tensor"):
        gt.compile(lambda: 3, fullgraph=True)()


def test_a_compiled_forward_updating_buffers_differentiates_outside():
    # the call bumps num_batches_tracked and the running statistics, which its backward
    # does not read: a backward run after the call is not refused
    gt.manual_seed(0)
    norms = [nn.BatchNorm1d(3), nn.BatchNorm1d(3)]
    xs = [gt.randn(4, 3, 5).requires_grad_() for _ in range(2)]
    xs[1] = xs[0].detach().clone().requires_grad_()
    weights = gt.randn(4, 3, 5)
    forward = gt.compile(lambda x: (norms[1](x) * weights).sum(), fullgraph=True)
    for _ in range(3):
        for x in xs:
            x.grad = None
        got, want = forward(xs[1]), (norms[0](xs[0]) * weights).sum()
        got.backward()
        want.backward()
        np.testing.assert_allclose(got.item(), want.item(), rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(_host(xs[1].grad), _host(xs[0].grad), rtol=1e-4, atol=1e-5)
    for a, b in zip(norms[0].state_dict().values(), norms[1].state_dict().values(),
                    strict=True):
        np.testing.assert_allclose(_host(b), _host(a), rtol=1e-5, atol=1e-6)


def test_buffers_go_back_to_the_allocator_after_their_last_read():
    ws = [gt.randn(128, 128) * 0.05 for _ in range(4)]

    def chain(x):
        for w in ws:
            x = (x @ w).relu()
        return x.sum()

    compiled = gt.compile(chain, fullgraph=True)
    x = gt.randn(128, 128)
    compiled(x)
    peaks = []
    for fn in (chain, compiled):
        gt.memory.reset_peak_memory_stats("cpu")
        base = gt.memory.memory_allocated("cpu")
        fn(x)
        peaks.append(gt.memory.max_memory_allocated("cpu") - base)
    assert peaks[1] <= peaks[0], peaks  # no more than eager, which frees each temporary
    assert peaks[1] <= 3 * 128 * 128 * 4, peaks  # at most two products and a result alive
