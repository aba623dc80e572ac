import pytest

import gtensor as gt


def test_default_and_current_stream():
    s0 = gt.cuda.current_stream()
    assert s0 == gt.cuda.default_stream() and s0.handle == 0
    s = gt.cuda.Stream()
    assert s.handle != 0 and s.device == gt.device("cuda:0")
    with gt.cuda.stream(s):
        assert gt.cuda.current_stream() is s
        x = gt.arange(4, device="cuda").clone()
        with gt.cuda.stream(None):
            assert gt.cuda.current_stream() is s
    assert gt.cuda.current_stream() == s0
    s.synchronize()
    assert s.query()
    assert x.tolist() == [0, 1, 2, 3]


def test_stream_ordering_with_events():
    s1, s2 = gt.cuda.Stream(), gt.cuda.Stream()
    with gt.cuda.stream(s1):
        y = gt.zeros(4, device="cuda")
        y.fill_(3.0)
        e = s1.record_event()
    s2.wait_event(e)
    with gt.cuda.stream(s2):
        z = y.clone()
    s2.wait_stream(s1)
    s2.synchronize()
    assert e.query()
    assert z.tolist() == [3.0] * 4


def test_event_timing():
    start, end = gt.cuda.Event(enable_timing=True), gt.cuda.Event(enable_timing=True)
    start.record()
    gt.ones(8, device="cuda").fill_(2.0)
    end.record()
    end.synchronize()
    assert start.elapsed_time(end) >= 0.0
    with pytest.raises(RuntimeError, match=r"^\[elapsed_time\] both events need"):
        gt.cuda.Event().elapsed_time(end)
