"""The training step the ``train.*`` cases share: fixed data, cross-entropy, one optimizer step.

A case subclasses :class:`TrainStep` with the model it builds (``build``),
how logits come from it (``logits``) and its data (``x``, ``y``); the step,
the optimizer and ``gt.compile`` are here once.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from ..libraries import Library
from ..registry import Unsupported


class TrainStep(ABC):
    """``opt.zero_grad(); cross_entropy(logits(x), y).backward(); opt.step()`` over fixed data.

    Args:
        lib: the library (gtensor or torch; others have no autograd).
        optimizer: ``"adam"`` (lr 1e-3) or ``"sgd"`` (lr 1e-2).
        compiled: run the whole step under ``gt.compile`` (gtensor only; the
            references run eagerly).
        cuda_graphs: ``gt.compile``'s ``cuda_graphs`` (replay the step as one captured
            CUDA graph on a GPU).

    Example:
        >>> class Linear(TrainStep):
        ...     def build(self, nn): return nn.Linear(4, 2)
        >>> Linear(Library("numpy", "cpu"))  # doctest: +SKIP
        Traceback (most recent call last):
        bench.registry.Unsupported: no autograd or nn modules
    """

    x: Any
    y: Any

    def __init__(self, lib: Library, optimizer: str = "adam", compiled: bool = False,
                 cuda_graphs: bool | None = None) -> None:
        if lib.name not in ("gtensor", "torch"):
            raise Unsupported("no autograd or nn modules")
        self.lib = lib
        lib.ns.manual_seed(0)
        self.model = self.build(lib.ns.nn).to(lib.device)
        params = self.model.parameters()
        self.opt = (lib.ns.optim.Adam(params, lr=1e-3) if optimizer == "adam"
                    else lib.ns.optim.SGD(params, lr=1e-2))
        self.loss_fn = lib.ns.nn.CrossEntropyLoss()
        self.step = lib.ns.compile(self._step, cuda_graphs=cuda_graphs) \
            if compiled and lib.name == "gtensor" else self._step

    @abstractmethod
    def build(self, nn: Any) -> Any:
        """The model, made with the library's ``nn`` (after seeding)."""

    def logits(self, x: Any) -> Any:
        """The model's logits for ``x`` (2-D, as cross-entropy takes them)."""
        return self.model(x)

    def _step(self, x: Any, y: Any) -> None:
        self.opt.zero_grad()
        self.loss_fn(self.logits(x), y).backward()
        self.opt.step()

    def __call__(self) -> None:
        self.step(self.x, self.y)
