"""The suite's own safety nets (tests/conftest.py): what a test registered is closed at its
teardown also when it fails, a thread left running fails that test's teardown (naming it) and
not a later test, threads of module-scoped fixtures are not leaks, and every test has exactly
one of the markers unit, integration and gui."""

from __future__ import annotations

import threading
import time

import pytest

from tests import conftest

pytest_plugins = ["pytester"]

INNER_CONFTEST = """
from tests.conftest import _closed_and_no_leaked_threads, closer  # noqa: F401
"""
KINDS_CONFTEST = INNER_CONFTEST + "from tests.conftest import pytest_collection_modifyitems\n"

INNER_TESTS = """
import threading
import time

import pytest

from tests.conftest import close_at_teardown

CLOSED = []


class Device:
    def __init__(self, name):
        self.name = name

    def close(self):
        CLOSED.append(self.name)


class Emulator:
    def stop(self):
        CLOSED.append("emulator")


@pytest.fixture(scope="module")
def long_lived():
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait, name="module-worker", daemon=True)
    thread.start()
    yield thread
    stop.set()
    thread.join()


def test_fails_after_opening(closer):
    closer.add(Emulator())
    close_at_teardown(Device("device"))
    assert False, "the test fails"


def test_the_next_one_finds_them_closed():
    assert CLOSED == ["device", "emulator"]  # last registered first


def test_leaks_a_thread():
    threading.Thread(target=time.sleep, args=(1.0,), name="leaky", daemon=True).start()


def test_a_thread_that_ends_in_time_is_no_leak():
    threading.Thread(target=time.sleep, args=(0.05,), name="brief", daemon=True).start()


def test_uses_the_module_thread(long_lived):
    assert long_lived.is_alive()


def test_uses_it_again(long_lived):
    assert long_lived.is_alive()
"""


def test_closer_and_leaked_thread_check(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(conftest, "THREAD_GRACE", 0.3)
    pytester.makeconftest(INNER_CONFTEST)
    pytester.makepyfile(test_inner=INNER_TESTS)
    try:
        result = pytester.runpytest_inprocess("-p", "no:cacheprovider")
    finally:
        for thread in threading.enumerate():
            if thread.name == "leaky":
                thread.join()
    result.assert_outcomes(passed=5, failed=1, errors=1)
    result.stdout.fnmatch_lines(
        [
            "*ERROR at teardown of test_leaks_a_thread*",
            "*thread(s) still running after the test's teardown: 'leaky' (target time.sleep*",
        ]
    )
    assert "module-worker" not in result.stdout.str()
    assert "brief" not in result.stdout.str()


def test_close_at_teardown_outside_a_test_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(conftest.Closer, "active", None)
    with pytest.raises(RuntimeError, match="outside a test"):
        conftest.close_at_teardown(object())


@pytest.mark.integration  # a child process
def test_closer_runs_every_close_and_reaps_processes() -> None:
    import subprocess
    import sys

    closer = conftest.Closer()
    calls: list[str] = []

    class Broken:
        def close(self) -> None:
            calls.append("broken")
            raise OSError("close failed")

    child = closer.add(subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"]))
    closer.callback(calls.append, "callback")
    closer.add(Broken())
    with pytest.raises(TypeError, match="neither close"):
        closer.add(object())
    started = time.monotonic()
    with pytest.raises(OSError, match="close failed"):
        closer.close()
    assert calls == ["broken", "callback"]  # the later ones still ran after the failure
    assert child.returncode is not None and time.monotonic() - started < 10


def test_every_test_has_exactly_one_kind(request: pytest.FixtureRequest) -> None:
    """unit, integration or gui, one of them, on every test of this run."""
    items = request.session.items
    assert request.node in items
    wrong = {
        item.nodeid: kinds
        for item in items
        if len(kinds := [k for k in conftest.KINDS if item.get_closest_marker(k)]) != 1
    }
    assert not wrong, wrong
    assert conftest.kind_of(request.node) == "unit"


def test_kinds_come_from_the_module_the_fixtures_and_an_own_marker(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeconftest(
        INNER_CONFTEST + "from tests.conftest import pytest_collection_modifyitems\n"
    )
    pytester.makeini("[pytest]\nmarkers =\n  unit\n  integration\n  gui\n  postgres\n")
    body = """
import pytest

def test_pure():
    pass

@pytest.mark.integration
def test_runs_a_child():
    pass

@pytest.mark.postgres
def test_on_the_server():
    pass

@pytest.fixture
def qtbot():
    return None

def test_with_widgets(qtbot):
    pass
"""
    pytester.makepyfile(test_some_module=body, test_soak=body.replace("test_", "test_s_"))
    for selected, passed in (("unit", 1), ("integration", 2 + 3), ("gui", 2)):
        result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "-m", selected)
        result.assert_outcomes(passed=passed, deselected=8 - passed)
