"""The whole training step the compile tests run eagerly and compiled."""

import gtensor.nn.functional as F


def training_step(model, opt):
    """A whole training step: zero the grads, forward, cross-entropy, backward, update."""
    def step(x, y):
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        return loss
    return step
