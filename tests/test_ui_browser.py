"""The what-if page in a real browser: headless Chromium (the system's package) driven by Playwright.

The test starts ``dreamscape ui`` on a free loopback port, changes a knob on the page, runs it, reads the
paired change off the page and checks it against the Python API's numbers for the same seed
(:func:`analyses.lab.compare`), reopens the run from the history, and keeps a screenshot
(``$DREAMSCAPE_ARTEFACTS``, else ``out/artefacts``: .ci/run lists it). Without Chromium it skips, saying so.
"""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GAMES = 300
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on PATH (apt-get install chromium): "
                                                         "the what-if page's browser test needs the system's Chromium")


def artefacts() -> Path:
    folder = Path(os.environ.get("DREAMSCAPE_ARTEFACTS") or ROOT / "out" / "artefacts")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="module")
def page_server(tmp_path_factory):
    from analyses.lab.ui.page import free_port

    port = free_port()
    data = tmp_path_factory.mktemp("ui-data")
    env = dict(os.environ, DREAMSCAPE_SERVER="off", DREAMSCAPE_UI_DATA=str(data))
    env.pop("PYTEST_CURRENT_TEST", None)  # NiceGUI would take the server for its own test harness's
    log = open(data / "server.log", "w")
    server = subprocess.Popen([str(Path(sys.executable).parent / "dreamscape"), "ui", "--port", str(port),
                               "--no-browser"], stdout=log, stderr=subprocess.STDOUT, env=env, cwd=data)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                break
        if server.poll() is not None:
            pytest.fail(f"dreamscape ui ended: {(data / 'server.log').read_text()}")
        time.sleep(0.2)
    else:
        server.terminate()
        pytest.fail("dreamscape ui did not listen within 60 s")
    yield f"http://127.0.0.1:{port}/", data
    server.terminate()
    server.wait(timeout=20)
    log.close()


def test_a_knob_change_on_the_page_shows_the_apis_numbers(page_server):
    from playwright.sync_api import expect, sync_playwright

    from analyses import lab

    url, data = page_server
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(url)
        # a bad value is one line on the page, before anything is played
        page.locator(".whatif-knob").click()
        page.get_by_role("option", name="start-z (R2.2", exact=False).click()
        page.locator(".whatif-value input").fill("9")
        page.locator(".whatif-run").click()
        expect(page.locator(".whatif-message")).to_contain_text("outside 0..3", timeout=30_000)  # the click's answer
        # a long run is cancelled from the page
        page.locator(".whatif-value input").fill("0,1,1")
        page.locator(".whatif-games input").fill("1000000")
        page.locator(".whatif-run").click()
        page.get_by_text("paired games:", exact=False).wait_for(timeout=120_000)
        page.locator(".whatif-cancel").click()
        page.get_by_text("cancelled", exact=True).wait_for(timeout=60_000)
        page.locator(".whatif-games input").fill(str(GAMES))
        page.locator(".whatif-seed input").fill("5")
        page.locator(".whatif-distance").click()  # skip the search games: the test stays quick
        page.locator(".whatif-run").click()
        first = page.locator(".whatif-diff[data-metric=first_seat_win]")
        first.wait_for(timeout=120_000)
        shown = first.inner_text()
        seat_one = page.locator(".whatif-seat[data-seat='1']").inner_text()
        page.screenshot(path=str(artefacts() / "ui-whatif.png"), full_page=True)
        # the history keeps it (in the data folder), and reopening it shows the same numbers
        page.locator(".whatif-reopen-1").click()
        assert page.locator(".whatif-diff[data-metric=first_seat_win]").inner_text() == shown
        assert "knob:start-z=0,1,1" in page.locator(".whatif-command").inner_text()
        browser.close()
    rows = lab.compare(game="dreamscape", players=3, variants=["base", "knob:start-z=0,1,1"], games=GAMES, seed=5)
    first_seat = rows.filter(rows["metric"] == "first_seat_win").to_dicts()[0]
    assert shown.startswith(f"{100 * first_seat['diff']:+.1f} points (95% CI {100 * first_seat['diff_low']:+.1f} "
                            f"to {100 * first_seat['diff_high']:+.1f})")
    # the seats table reads the games themselves: its seat 1 is the comparison's first-seat row
    assert seat_one == (f"{100 * first_seat['diff']:+.1f} points ({100 * first_seat['diff_low']:+.1f} to "
                        f"{100 * first_seat['diff_high']:+.1f})")
    assert (data / "whatif-history.json").is_file()
