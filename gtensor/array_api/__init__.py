"""``gtensor.array_api``: the Python array API standard (2024.12) over gtensor's own ``Tensor``.

``x.__array_namespace__()`` returns this module, so libraries written
against the standard (scikit-learn with ``array_api_dispatch=True``, SciPy
with ``SCIPY_ARRAY_API=1``) run on gtensor tensors, on cpu and cuda, with no
wrapper class and no copies: every function takes and returns
:class:`gtensor.Tensor` and runs gtensor's ops on the array's device.

Example:
    >>> import gtensor as gt
    >>> xp = gt.ones(3).__array_namespace__()
    >>> xp.sum(xp.arange(4)).item(), xp.__array_api_version__
    (6, '2024.12')

Where it departs from the standard, or leaves parts out:

* Dtypes: those :mod:`gtensor.dtypes` has (bool, uint8-uint64, int8-int64,
  float32/float64, complex64/complex128, plus float16 and bfloat16 as extras
  that the inspection API does not list). The ``fft`` extension is
  :mod:`.fft` (gtensor's transforms under the standard's signatures).
* Type promotion follows the standard in these functions (see
  :mod:`.data_types`: a 0-d array promotes as any array); Tensor operators
  (``x + y``) keep gtensor's PyTorch rule, where a 0-d tensor only raises the
  kind.
* ``x.size`` is gtensor's (PyTorch's) method, not the standard's attribute:
  ``math.prod(x.shape)`` gives the element count.
* Sums and products of unsigned integers give int64 (gtensor's, PyTorch's
  rule), not the standard's uint64.
* Arrays on different devices: a 0-d cpu array joins a CUDA one as a number
  (as in gtensor); other mixes raise.
"""

from __future__ import annotations

import math
from typing import Any

from ..errors import check
from . import creation, elementwise, fft, linalg, manipulation, searching, sets, statistics
from .creation import *  # noqa: F403 - each part lists its names in __all__
from .data_types import astype, by_name, can_cast, finfo, iinfo, isdtype, result_type
from .elementwise import *  # noqa: F403
from .info import __array_namespace_info__
from .linalg import matmul, matrix_transpose, tensordot, vecdot
from .manipulation import *  # noqa: F403
from .searching import *  # noqa: F403
from .sets import *  # noqa: F403
from .statistics import *  # noqa: F403

__array_api_version__ = "2024.12"
VERSIONS = ("2021.12", "2022.12", "2023.12", "2024.12")
"""The standard's versions this namespace serves (each later one extends the earlier)."""

e = math.e
inf = math.inf
nan = math.nan
pi = math.pi
newaxis = None

__all__ = [
    "__array_api_version__", "__array_namespace_info__", "astype", "can_cast", "e", "finfo",
    "fft", "iinfo", "inf", "isdtype", "linalg", "matmul", "matrix_transpose", "nan", "newaxis",
    "pi", "result_type", "tensordot", "vecdot",
    *creation.__all__, *elementwise.__all__, *manipulation.__all__, *searching.__all__,
    *sets.__all__, *statistics.__all__,
]


def check_version(api_version: str | None) -> None:
    """Raise ``ValueError`` unless ``api_version`` is None or a version this namespace serves.

    Example:
        >>> check_version("2024.12")
    """
    check(api_version is None or api_version in VERSIONS, "__array_namespace__",
          lambda: f"array API version {api_version!r} is not supported; this namespace "
          f"implements {__array_api_version__} (and serves {', '.join(VERSIONS)})", ValueError)


def __getattr__(name: str) -> Any:
    """The dtypes, read from :mod:`gtensor.dtypes` (``xp.float32 is gtensor.float32``)."""
    found = by_name().get(name)
    if found is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return found


def __dir__() -> list[str]:
    """The module's names and the dtypes' (see :func:`__getattr__`)."""
    return sorted([*globals(), *by_name()])
