"""``gt.linalg``: PyTorch's ``torch.linalg`` (and the array API's ``linalg``) over gtensor tensors.

Batched over leading dims, differentiable, on the tensor's device: LAPACK
through NumPy for host memory and cuSOLVER through CuPy on a GPU
(:mod:`.lapack`); the VJPs are written in gtensor ops. Real (float32,
float64) and complex (complex64, complex128) matrices; complex gradients follow
PyTorch's convention (conjugate transposes where the real VJPs transpose).

Example:
    >>> import gtensor as gt
    >>> gt.linalg.det(gt.eye(3)).item()
    1.0
"""

from .condition import cond
from .determinants import SlogdetResult, det, slogdet
from .eigen import EigResult, eig, eigvals
from .ex_forms import (
    CholeskyExResult,
    InvExResult,
    LUFactorExResult,
    SolveExResult,
    cholesky_ex,
    inv_ex,
    lu_factor_ex,
    lu_solve,
    solve_ex,
)
from .factorizations import (
    EighResult,
    QRResult,
    SVDResult,
    cholesky,
    eigh,
    eigvalsh,
    qr,
    svd,
    svdvals,
)
from .failures import LinAlgError
from .householder import householder_product
from .least_squares import LstsqResult, lstsq, matrix_rank, pinv
from .lu import LUFactorResult, LUResult, lu, lu_factor
from .matrix_exp import matrix_exp
from .norms import matrix_norm, norm, vector_norm
from .products import (
    cross,
    diagonal,
    matmul,
    matrix_transpose,
    multi_dot,
    outer,
    tensordot,
    trace,
    vander,
    vecdot,
)
from .solvers import inv, matrix_power, solve, solve_triangular
from .tensor_solvers import tensorinv, tensorsolve

__all__ = [
    "EigResult", "EighResult", "LUFactorResult", "LUResult", "LinAlgError", "LstsqResult",
    "QRResult", "SVDResult", "lu", "lu_factor", "InvExResult", "LUFactorExResult",
    "inv_ex", "lu_factor_ex", "lu_solve", "CholeskyExResult", "SolveExResult", "cholesky_ex",
    "solve_ex", "tensorinv", "tensorsolve", "householder_product",
    "SlogdetResult", "cholesky", "cond", "cross", "det", "diagonal", "eig", "eigh", "eigvals",
    "eigvalsh", "inv", "lstsq", "matmul", "matrix_exp", "matrix_norm", "matrix_power",
    "matrix_rank",
    "matrix_transpose", "multi_dot", "norm", "outer", "pinv", "qr", "slogdet", "solve",
    "solve_triangular", "svd", "svdvals", "tensordot", "trace", "vander", "vecdot", "vector_norm",
]
