"""``gtensor.special``: PyTorch's ``torch.special`` names over gtensor's ops.

Mostly the same functions as the top-level ones under SciPy's names
(``expit`` is :func:`gtensor.sigmoid`, ``gammaln`` :func:`gtensor.lgamma`, ``psi``
:func:`gtensor.digamma`); ``xlog1py`` and ``entr`` live here only.

Example:
    >>> import gtensor as gt
    >>> gt.special.expit(gt.zeros(1)).tolist()
    [0.5]
"""

from ..ops.gamma_family import i0, polygamma
from ..ops.gamma_family import mvlgamma as multigammaln
from ..ops.reduction import logsumexp
from ..ops.softmax import log_softmax, softmax
from ..ops.special_functions import entr, erfc, logit, ndtr, sinc, xlog1py, xlogy
from ..ops.unary import digamma, erf, erfinv, exp2, expm1, log1p, round
from ..ops.unary import lgamma as gammaln
from ..ops.unary import sigmoid as expit

psi = digamma

__all__ = ["digamma", "entr", "erf", "erfc", "erfinv", "exp2", "expit", "expm1", "gammaln",
           "i0", "multigammaln", "polygamma", "log1p", "log_softmax", "logit", "logsumexp", "ndtr",
           "psi",
           "round", "sinc", "softmax", "xlog1py", "xlogy"]
