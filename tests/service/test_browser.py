"""The web page of `kgrag serve` in a real browser: headless Chromium driven by Selenium.

Needs Debian's ``chromium`` and ``chromium-driver`` (/usr/bin/chromium, /usr/bin/chromedriver; other
paths via KGRAG_CHROMIUM / KGRAG_CHROMEDRIVER); skipped, saying so, only where they are absent.
Selenium is told never to download a driver or a browser (SE_OFFLINE, explicit paths).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install selenium)")
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select, WebDriverWait

CHROMIUM = Path(os.environ.get("KGRAG_CHROMIUM", "/usr/bin/chromium"))
CHROMEDRIVER = Path(os.environ.get("KGRAG_CHROMEDRIVER", "/usr/bin/chromedriver"))
SCREENSHOTS = Path(__file__).resolve().parents[2] / "runs" / "screenshots"
# The demo KG is the bundled movie sample (no Pulp Fiction in it): Inception|directed_by|Christopher Nolan.
QUESTION = "who directed Inception"
ANSWER = "Christopher Nolan"
ANSWER_TIMEOUT_S = 60
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"

_missing = [str(p) for p in (CHROMIUM, CHROMEDRIVER) if not (p.is_file() and os.access(p, os.X_OK))]
pytestmark = pytest.mark.skipif(
    bool(_missing), reason=f"no headless browser: {', '.join(_missing)} not found "
                           "(apt-get install chromium chromium-driver)")


@pytest.fixture
def browser(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[WebDriver]:
    monkeypatch.setenv("SE_OFFLINE", "true")  # Selenium Manager must not fetch drivers or browsers
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--no-first-run", "--disable-quic", "--no-proxy-server", "--window-size=1400,1300",
                f"--user-data-dir={tmp_path / 'chromium-profile'}"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(executable_path=str(CHROMEDRIVER), log_output=str(tmp_path / "chromedriver.log"))
    driver = webdriver.Chrome(options=options, service=service)
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()


def _console(driver: WebDriver) -> str:
    try:
        return "\n".join(f"{e['level']}: {e['message']}" for e in driver.get_log("browser"))
    except Exception:  # noqa: BLE001 - diagnostics only
        return "(no browser log)"


def _text(driver: WebDriver, element_id: str) -> str:
    return driver.find_element(By.ID, element_id).text


def _wait_for_methods(driver: WebDriver) -> Select:
    try:
        WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#method option:not([value=''])"))
    except TimeoutException:
        pytest.fail(f"the method picker was never filled from /info; status={_text(driver, 'status')!r} "
                    f"error={_text(driver, 'error')!r}\n{_console(driver)}")
    return Select(driver.find_element(By.ID, "method"))


def _ask(driver: WebDriver, question: str) -> list[str]:
    """Type the question, click Ask, wait for the selected answers (or fail with the page's error)."""
    box = driver.find_element(By.ID, "question")
    box.clear()
    box.send_keys(question)
    driver.find_element(By.ID, "ask").click()

    def done(d: WebDriver) -> bool:
        return bool(d.find_elements(By.CSS_SELECTOR, "#answers li.answer")) or (
            d.find_element(By.ID, "error").is_displayed() and not d.find_element(By.ID, "ask").get_attribute("disabled"))

    try:
        WebDriverWait(driver, ANSWER_TIMEOUT_S).until(done)
    except TimeoutException:
        pytest.fail(f"no answer within {ANSWER_TIMEOUT_S} s; status={_text(driver, 'status')!r}\n{_console(driver)}")
    names = [li.find_element(By.CSS_SELECTOR, ".name").text
             for li in driver.find_elements(By.CSS_SELECTOR, "#answers li.answer")]
    assert names, f"the page shows an error instead of answers: {_text(driver, 'error')!r}\n{_console(driver)}"
    return names


def _save_png(driver: WebDriver, *paths: Path) -> None:
    png = driver.get_screenshot_as_png()
    for path in paths:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(png)
        data = path.read_bytes()
        assert len(data) > 1000 and data.startswith(PNG_MAGIC), f"{path} is not a PNG screenshot"



def _assert_graph_drawn(browser, what: str) -> None:
    """#graph holds a Cytoscape canvas of a visible size with two nodes and an edge at least."""
    graph = browser.find_element(By.ID, "graph")
    WebDriverWait(browser, 10).until(lambda d: graph.get_attribute("data-nodes") is not None)
    assert int(graph.get_attribute("data-nodes")) >= 2, f"{what} was not drawn"
    assert int(graph.get_attribute("data-edges")) >= 1
    assert graph.find_elements(By.CSS_SELECTOR, "canvas"), "no Cytoscape canvas in #graph"
    assert graph.size["height"] > 100 and graph.size["width"] > 100


def test_ask_renders_answers_and_graph(browser: WebDriver, served_db: str, tmp_path: Path) -> None:
    browser.get(served_db.rstrip("/") + "/")
    try:  # the first page of a run can take a while on a loaded 2-core machine (the suite's other work)
        WebDriverWait(browser, 30).until(lambda d: d.title == "kgrag")
    except TimeoutException:
        browser.refresh()
    assert browser.title == "kgrag", f"the page did not load: {browser.current_url!r}\n{_console(browser)}"
    method = _wait_for_methods(browser)
    assert method.first_selected_option.get_attribute("value") == "baseline"  # the server's default
    assert browser.find_elements(By.CSS_SELECTOR, "#options .option"), "no option controls for the method"
    assert "nodes" in _text(browser, "dbinfo")

    names = _ask(browser, QUESTION)
    assert ANSWER in names, names
    assert not browser.find_element(By.ID, "error").is_displayed(), _text(browser, "error")

    _assert_graph_drawn(browser, "the evidence subgraph")
    # the graph is interactive: tapping a node shows its name
    shown = browser.execute_script(
        "const cy = window.kgrag.cy;"
        "const n = cy.nodes('[role = \"answer\"]').first(); n.emit('tap');"
        "return [n.data('name'), document.getElementById('node-info').textContent];")
    assert shown[0] and shown[0] in shown[1], shown

    assert _text(browser, "evidence"), "no evidence shown"
    _save_png(browser, tmp_path / "browser-ask.png", SCREENSHOTS / "browser-ask.png")


def test_stream_shows_answers(browser: WebDriver, served_db: str) -> None:
    browser.get(served_db.rstrip("/") + "/")
    _wait_for_methods(browser)
    browser.find_element(By.ID, "stream").click()
    assert ANSWER in _ask(browser, QUESTION)
    assert "Answered" in _text(browser, "status")


def test_token_protected_server(browser: WebDriver, served_with_token: tuple[str, str], tmp_path: Path) -> None:
    url, token = served_with_token
    browser.get(url.rstrip("/") + "/")
    error = browser.find_element(By.ID, "error")
    WebDriverWait(browser, 30).until(lambda d: error.is_displayed() and "401" in error.text)
    assert "token" in error.text.lower()
    token_box = browser.find_element(By.ID, "token")
    assert token_box.is_displayed(), "the token field is not shown after a 401"
    _save_png(browser, tmp_path / "browser-401.png", SCREENSHOTS / "browser-401.png")

    token_box.send_keys(token)
    names = _ask(browser, QUESTION)
    assert ANSWER in names, names
    assert not error.is_displayed(), error.text
    assert browser.find_elements(By.CSS_SELECTOR, "#method option[value='baseline']"), "/info not loaded with the token"
    assert browser.execute_script("return localStorage.getItem('kgrag.token')") == token
    _save_png(browser, tmp_path / "browser-token.png", SCREENSHOTS / "browser-token.png")


def test_invalid_option_is_refused_with_its_name(browser: WebDriver, served_db: str) -> None:
    """Options are typed controls; a changed one is sent, and the server's 422 names it."""
    browser.get(served_db.rstrip("/") + "/")
    _wait_for_methods(browser)
    browser.find_element(By.CSS_SELECTOR, "#options-panel summary").click()
    top_m = browser.find_element(By.ID, "opt-baseline-top_m")
    assert top_m.get_attribute("type") == "number" and top_m.get_attribute("value") == "1"
    top_m.clear()
    top_m.send_keys("0")  # the option requires >= 1
    box = browser.find_element(By.ID, "question")
    box.send_keys(QUESTION)
    box.submit()  # Enter / form submission asks too
    error = browser.find_element(By.ID, "error")
    WebDriverWait(browser, ANSWER_TIMEOUT_S).until(lambda d: error.is_displayed())
    assert "422" in error.text and "top_m" in error.text, error.text
    assert not browser.find_elements(By.CSS_SELECTOR, "#answers li.answer")


FALSE_CLAIM = "21 Grams was directed by John Woo."
DIRECTOR = "Alejandro González Iñárritu"


def _check_claim(driver: WebDriver, claim: str) -> str:
    """In claim mode: type the claim, click Check, wait for the verdict (or fail with the page's error)."""
    box = driver.find_element(By.ID, "question")
    box.clear()
    box.send_keys(claim)
    button = driver.find_element(By.ID, "ask")
    assert button.text == "Check"
    button.click()

    def done(d: WebDriver) -> bool:
        return bool(d.find_element(By.ID, "claim-verdict").text) or (
            d.find_element(By.ID, "error").is_displayed() and not d.find_element(By.ID, "ask").get_attribute("disabled"))

    try:
        WebDriverWait(driver, ANSWER_TIMEOUT_S).until(done)
    except TimeoutException:
        pytest.fail(f"no verdict within {ANSWER_TIMEOUT_S} s; status={_text(driver, 'status')!r}\n{_console(driver)}")
    verdict = _text(driver, "claim-verdict")
    assert verdict, f"the page shows an error instead of a verdict: {_text(driver, 'error')!r}\n{_console(driver)}"
    return verdict


def test_claim_mode_shows_the_verdict_the_facts_and_the_graph(browser: WebDriver, served_db: str,
                                                                tmp_path: Path) -> None:
    browser.get(served_db.rstrip("/") + "/")
    _wait_for_methods(browser)
    question_mode, claim_mode = browser.find_element(By.ID, "mode-ask"), browser.find_element(By.ID, "mode-verify")
    assert question_mode.get_attribute("aria-pressed") == "true" and claim_mode.get_attribute("aria-pressed") == "false"
    box = browser.find_element(By.ID, "question")
    box.send_keys(QUESTION)  # kept for question mode
    claim_mode.click()
    assert claim_mode.get_attribute("aria-pressed") == "true"
    assert box.get_attribute("value") == "" and "claim" in box.get_attribute("placeholder")
    assert not browser.find_element(By.ID, "method").is_displayed(), "the method picker is for questions"

    assert _check_claim(browser, FALSE_CLAIM) == "false"
    assert not browser.find_element(By.ID, "error").is_displayed(), _text(browser, "error")
    verdict = browser.find_element(By.ID, "claim-verdict")
    assert "false" in verdict.get_attribute("class").split()
    assert verdict.value_of_css_property("color") == "rgba(153, 27, 27, 1)"  # red (--false-ink)
    assert _text(browser, "claim-confidence").startswith("confidence 0.")
    assert "John Woo" in _text(browser, "claim-reason")
    (fact,) = browser.find_elements(By.CSS_SELECTOR, "#facts li.fact")
    assert "fails" in fact.get_attribute("class").split() and "does not hold" in fact.text
    assert f"KG holds instead: 21 Grams —directed_by→ {DIRECTOR}" in fact.text, fact.text
    assert not browser.find_element(By.ID, "answers-card").is_displayed(), "the answers card is for questions"
    assert "Checked by auto" in _text(browser, "status")

    _assert_graph_drawn(browser, "the deciding subgraph")
    drawn = browser.execute_script(
        "const cy = window.kgrag.cy;"
        "return [cy.nodes('[role = \"question\"]').map((n) => n.data('name')).sort(),"
        "        cy.edges('[mark = \"instead\"]').map((e) => e.target().data('name'))];")
    assert drawn == [["21 Grams", "John Woo"], [DIRECTOR]], drawn
    assert "fact" in _text(browser, "evidence")
    _save_png(browser, tmp_path / "browser-claim.png", SCREENSHOTS / "browser-claim.png")

    question_mode.click()  # back to questions: what was typed there, and the answers
    assert box.get_attribute("value") == QUESTION and browser.find_element(By.ID, "ask").text == "Ask"
    assert ANSWER in _ask(browser, QUESTION)
    assert not browser.find_element(By.ID, "claim-card").is_displayed()


def test_claim_mode_shows_the_servers_refusals(browser: WebDriver, demo_db: Path) -> None:
    """The 422 of a claim too long (naming the field), and the 403 of a server that serves no method
    checking claims, shown as /ask's errors are."""
    from kgrag.service import ServiceSettings

    from .conftest import running

    with running(ServiceSettings(db=demo_db, method="baseline", methods=("baseline",))) as url:
        browser.get(url + "/")
        _wait_for_methods(browser)
        browser.find_element(By.ID, "mode-verify").click()
        box = browser.find_element(By.ID, "question")
        browser.execute_script("arguments[0].value = 'x'.repeat(2001)", box)
        box.submit()
        error = browser.find_element(By.ID, "error")
        WebDriverWait(browser, ANSWER_TIMEOUT_S).until(lambda d: error.is_displayed())
        assert "422 Invalid request: POST /verify failed" in error.text and "claim: " in error.text, error.text
        assert "2000 characters" in error.text, error.text

        box.clear()
        box.send_keys(FALSE_CLAIM)
        box.submit()
        WebDriverWait(browser, ANSWER_TIMEOUT_S).until(lambda d: "403" in error.text)
        assert "403" in error.text and "POST /verify" in error.text and "auto or simgrag" in error.text, error.text
        assert not browser.find_element(By.ID, "results").is_displayed()
