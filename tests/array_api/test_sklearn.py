"""scikit-learn estimators with array API dispatch, fitted on gtensor tensors, match NumPy fits.

scikit-learn finds the namespace through its vendored ``array_api_compat``
(``x.__array_namespace__()``); the fitted attributes and outputs stay gtensor
tensors on the input's device.
"""

from __future__ import annotations

import numpy as np
import pytest

import gtensor as gt
import gtensor.array_api as gxp

sklearn = pytest.importorskip("sklearn")
compat = pytest.importorskip("sklearn.externals.array_api_compat")
decomposition = pytest.importorskip("sklearn.decomposition")
discriminant = pytest.importorskip("sklearn.discriminant_analysis")


@pytest.fixture
def dispatch(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("SCIPY_ARRAY_API", "1")  # scikit-learn checks it before dispatching
    with sklearn.config_context(array_api_dispatch=True):
        yield


def _data() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(11)
    y = np.array([0, 1, 2] * 4)
    return rng.normal(size=(12, 3)) + y[:, None], y


def test_array_api_compat_finds_the_namespace() -> None:
    x = gt.ones(2)
    assert compat.is_array_api_obj(x) and compat.array_namespace(x) is gxp
    assert compat.device(x) == gt.device("cpu")


def test_pca_and_lda_fit_on_tensors(dispatch: None) -> None:
    X, y = _data()
    Xt, yt = gt.tensor(X), gt.tensor(y)
    pca = decomposition.PCA(n_components=2, svd_solver="full").fit(Xt)
    lda = discriminant.LinearDiscriminantAnalysis().fit(Xt, yt)
    got = {"pca": pca.transform(Xt), "components": pca.components_, "lda": lda.transform(Xt),
           "coef": lda.coef_, "predict": lda.predict(Xt)}
    with sklearn.config_context(array_api_dispatch=False):
        pca_np = decomposition.PCA(n_components=2, svd_solver="full").fit(X)
        lda_np = discriminant.LinearDiscriminantAnalysis().fit(X, y)
    want = {"pca": pca_np.transform(X), "components": pca_np.components_,
            "lda": lda_np.transform(X), "coef": lda_np.coef_, "predict": lda_np.predict(X)}
    for name, value in got.items():
        assert isinstance(value, gt.Tensor) and value.device == gt.device("cpu"), name
        np.testing.assert_allclose(value.numpy(), want[name], rtol=1e-9, atol=1e-12,
                                   err_msg=name)
