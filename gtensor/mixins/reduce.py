"""Methods that reduce or scan along dims: sums, extremes, statistics, softmax, sorting."""

from __future__ import annotations

from ..ops import (
    inplace_forms,
    nan_reductions,
    products,
    reduction,
    scan,
    sequences,
    sorting,
    statistics,
)
from ..ops import softmax as softmax_ops


class ReductionMethods:
    """``sum``, ``max``, ``var``, ``cumsum``, ``softmax``, ``sort``, ``median``, ``quantile``..."""

    __slots__ = ()

    sum = reduction.sum
    mean = reduction.mean
    prod = reduction.prod
    amax = reduction.amax
    amin = reduction.amin
    argmax = reduction.argmax
    argmin = reduction.argmin
    max = reduction.max
    min = reduction.min
    var = reduction.var
    std = reduction.std
    logsumexp = reduction.logsumexp
    norm = reduction.norm
    renorm = products.renorm
    renorm_ = products.renorm_
    any = reduction.any
    all = reduction.all
    cumsum = scan.cumsum
    cumprod = scan.cumprod
    cumsum_ = inplace_forms.cumsum_
    cumprod_ = inplace_forms.cumprod_
    cummax = sequences.cummax
    cummin = sequences.cummin
    logcumsumexp = sequences.logcumsumexp
    diff = sequences.diff
    softmax = softmax_ops.softmax
    log_softmax = softmax_ops.log_softmax
    sort = sorting.sort
    argsort = sorting.argsort
    topk = sorting.topk
    kthvalue = sorting.kthvalue
    unique = sorting.unique
    unique_consecutive = sorting.unique_consecutive
    count_nonzero = nan_reductions.count_nonzero
    nansum = nan_reductions.nansum
    nanmean = nan_reductions.nanmean
    aminmax = nan_reductions.aminmax
    histc = sorting.histc
    bincount = sorting.bincount
    msort = statistics.msort
    median = statistics.median
    nanmedian = statistics.nanmedian
    quantile = statistics.quantile
    nanquantile = statistics.nanquantile
    mode = statistics.mode
    cov = statistics.cov
    corrcoef = statistics.corrcoef
    histogram = statistics.histogram
