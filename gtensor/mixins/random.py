"""Methods that draw random values from gtensor's counter-based generators."""

from __future__ import annotations

from ..ops import random, random_extra


class RandomMethods:
    """In-place fills (``uniform_``, ``normal_``...) and draws shaped by ``self``."""

    __slots__ = ()

    uniform_ = random.uniform_
    normal_ = random.normal_
    random_ = random.random_
    bernoulli = random_extra.bernoulli
    bernoulli_ = random_extra.bernoulli_
    multinomial = random_extra.multinomial
