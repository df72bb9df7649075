"""The documentation site builds with `mkdocs build --strict` (a broken link, anchor or docstring
fails it), shows what the hooks generate, and the docs name only commands that exist, and the
command behind every number they measured, and state what is: how a figure changed is history, for
CHANGELOG.md."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

from .markdown import DOCUMENTS, REPO, name_of

BUILD_TIMEOUT_S = 600


def _needs_mkdocs() -> None:
    for module in ("mkdocs", "material", "mkdocstrings"):
        pytest.importorskip(module, reason="the docs tools are in the dev extra (pip install -e '.[dev]')")


def _build(config: Path, site: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(site)],
                          check=False, cwd=config.parent, capture_output=True, text=True, timeout=BUILD_TIMEOUT_S,
                          env={**_env(), "NO_MKDOCS_2_WARNING": "1"})


def _env() -> dict[str, str]:
    import os

    return dict(os.environ)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    _needs_mkdocs()
    site = tmp_path_factory.mktemp("site")
    r = _build(REPO / "mkdocs.yml", site)
    if r.returncode != 0:
        pytest.fail(f"mkdocs build --strict failed ({r.returncode})\n--- stdout\n{r.stdout[-4000:]}\n"
                    f"--- stderr\n{r.stderr[-8000:]}", pytrace=False)
    return site


def test_site_builds_strict_with_every_page(site: Path):
    pages = {p.relative_to(REPO / "docs").with_suffix("").as_posix() for p in (REPO / "docs").rglob("*.md")}
    for page in pages:
        html = site / f"{page}.html"
        assert html.is_file(), f"docs/{page}.md has no page in the site"
    assert (site / "changelog.html").is_file()


def test_the_home_page_is_the_readme_with_its_links_made_site_relative(site: Path):
    home = (site / "index.html").read_text(encoding="utf-8")
    assert "Set up and run (fresh machine)" in home and 'href="methods/graphraft.html"' in home
    assert 'href="docs/' not in home


def test_method_pages_show_the_options_of_their_options_class(site: Path):
    from kgrag.methods import describe_options, method_class

    for name in ("auto", "baseline", "graphraft", "simgrag", "ultrag", "byokg", "sage", "hybrid", "spark"):
        page = "sage" if name in ("hybrid", "spark") else name
        html = (site / "methods" / f"{page}.html").read_text(encoding="utf-8")
        missing = [o.name for o in describe_options(method_class(name).Options) if f"<code>{o.name}</code>" not in html]
        assert not missing, f"methods/{page}: options of {name} not shown: {missing}"
    assert "{{ options" not in (site / "methods" / "graphraft.html").read_text(encoding="utf-8")


def test_the_plots_are_served_from_benchmarks_results(site: Path):
    for png in (REPO / "benchmarks" / "results").glob("*.png"):
        assert (site / "benchmarks" / "results" / png.name).read_bytes() == png.read_bytes()
    assert 'src="benchmarks/results/auto_vs_single.png"' in (site / "benchmarks.html").read_text(encoding="utf-8")


def test_the_api_reference_renders_the_public_api(site: Path):
    html = (site / "reference" / "api.html").read_text(encoding="utf-8")
    for name in ("Database", "KnowledgeGraph", "Answer", "Evidence", "GraphRAFTOptions", "create_method"):
        assert f'id="kgrag.{name}"' in html or f'id="kgrag.methods.{name}"' in html, f"{name} is not in the reference"


def test_a_broken_link_fails_the_strict_build(tmp_path: Path):
    """The validation settings of mkdocs.yml turn a missing page or anchor into a failed build."""
    _needs_mkdocs()
    import yaml

    validation = yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))["validation"]
    (tmp_path / "docs").mkdir()
    config = tmp_path / "mkdocs.yml"
    config.write_text(yaml.safe_dump({"site_name": "t", "validation": validation}), encoding="utf-8")
    for target in ("other.md", "index.md#no-such-heading"):
        (tmp_path / "docs" / "index.md").write_text(f"# Home\n\n[a link]({target})\n", encoding="utf-8")
        r = _build(config, tmp_path / "site")
        assert r.returncode != 0 and target.split("#")[0] in r.stderr, f"{target}: {r.stderr[-2000:]}"


def test_the_diagrams_are_what_the_script_draws():
    spec = importlib.util.spec_from_file_location("docs_diagrams", REPO / "scripts" / "docs_diagrams.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for name, svg in module.diagrams().items():
        committed = REPO / "docs" / "assets" / name
        assert committed.read_text(encoding="utf-8") == svg, f"{committed} is stale: python scripts/docs_diagrams.py"
    assert "relation_steps" in module.diagrams()["layers.svg"]  # read from pyproject's contract


def test_the_readme_stays_short_and_its_links_resolve():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 200
    for target in re.findall(r"\]\((?!https?://)([^)#\s]+)", text):
        assert (REPO / target).exists(), f"README.md links to {target}, which does not exist"


CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.DOTALL)
SCRIPT = re.compile(r"benchmarks/([\w.]+\.(?:py|sh))")


def _benchmark_commands() -> list[tuple[str, str, list[str]]]:
    """(page, script, its --flags) for every benchmark script a page names in code."""
    found = []
    for doc in DOCUMENTS:
        text = doc.read_text(encoding="utf-8")
        for fence, span in (m.groups() for m in CODE_SPAN.finditer(text)):
            for line in span.splitlines() if len(fence) >= 3 else [" ".join(span.split())]:  # a block, or a span
                for m in SCRIPT.finditer(line):  # a span's flags up to the next script it names
                    rest = SCRIPT.split(line[m.end():], maxsplit=1)[0]
                    found.append((name_of(doc), m.group(1), re.findall(r"(?<!\S)(--[a-z][\w-]*)", rest)))
    return found


def test_benchmark_commands_name_scripts_and_flags_that_exist():
    commands = _benchmark_commands()
    assert len(commands) >= 30
    common = (REPO / "benchmarks" / "_common.py").read_text(encoding="utf-8")
    for doc, script, flags in commands:
        path = REPO / "benchmarks" / script
        assert path.is_file(), f"{doc} names benchmarks/{script}, which does not exist"
        source = path.read_text(encoding="utf-8") + common
        unknown = [f for f in flags if f'"{f}"' not in source]
        assert not unknown, f"{doc}: benchmarks/{script} has no option {unknown}"


_NUMBER = r"\d[\d,]*(?:\.\d+)?"
_SERIES = rf"{_NUMBER}(?:\s?[–-]\s?{_NUMBER}|\s/\s{_NUMBER})*"  # 4–5 ms, 1.74 / 2.00 / 2.32 ms
MEASURED = re.compile(  # a score (0.xx), or a time, size, ratio or share, alone, as a range or a series
    r"(?<![\w.,/–-])"  # not inside a word, a version or a range
    r"(?<![<>≤≥])(?<![<>≤≥] )(?<!over )(?<!default )"  # a threshold, a limit or a default: no measurement
    rf"(?:0\.\d{{2,}}|{_SERIES}(?:\s?(?:[mµ]s|min|minutes?|seconds?|hours?|[KMGT]i?B|%|[a-z]+/s)|\s[sh]|×))"
    r"(?!\w|\.\d)")  # "422s" (an HTTP status) and "0.11.3" (a version) are no measurement
MEASURING = re.compile(r"(?:python3? |bash )benchmarks/|kgrag (?:eval|demo)\b|make (?:demo|test|test-fast|bench)\b"
                       r"|\.ci/run|pytest|(?:^|[\s/])time |wc -l")
NOT_PROSE = re.compile(r"\{\{.*?\}\}|<!--.*?-->|\]\([^)]*\)"  # hook tags, comments, link targets,
                       r"|(?:LadybugDB|Kùzu|`ladybug`|`kuzu`) \d+(?:\.\d+)+")  # versions
QUOTED = re.compile(r'(?<![^\s(\[])"(?=\S)[^"\n]*\n?[^"\n]*"(?!\w)')  # a quoted question or message


def _sections(page: str) -> list[tuple[int, str, list[str], list[tuple[int, str]]]]:
    """(heading line, heading, commands: its code spans and block lines, prose lines) of each
    section of a page; a code span may run over lines."""
    sections: list[tuple[int, str, list[str], list[tuple[int, str]]]] = []
    fenced = False
    for number, line in enumerate(page.splitlines(), start=1):
        if not sections or not fenced and re.match(r"#{1,6} ", line):
            sections.append((number, line.lstrip("# "), [], []))
        code, prose = sections[-1][2], sections[-1][3]
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif fenced:
            code.append(line)
        else:
            prose.append((number, NOT_PROSE.sub(" ", line)))
    for _, _, code, prose in sections:
        text = "\n".join(line for _, line in prose)
        code += [" ".join(span.split()) for _, span in CODE_SPAN.findall(text)]
        for pattern in (CODE_SPAN, QUOTED):  # each replaced by its line breaks, so the line numbers stay
            text = pattern.sub(lambda m: "\n" * m.group(0).count("\n") + " ", text)
        prose[:] = zip([n for n, _ in prose], text.split("\n"), strict=True)
    return sections


def _unsourced(page: str) -> list[str]:
    """'line [heading]: numbers' for each section with measured numbers in its prose and no command."""
    unsourced = []
    for start, heading, code, prose in _sections(page):
        found = [m.group(0) for _, line in prose for m in MEASURED.finditer(line)]
        if found and not any(MEASURING.search(c) for c in code):
            lines = sorted({n for n, line in prose if MEASURED.search(line)})
            unsourced.append(f"{start} [{heading}], lines {lines}: {found}")
    return unsourced


def test_every_measured_number_names_the_command_behind_it():
    """Issue #40: a score, time, size, ratio or share in the docs stands in a section (from one heading
    to the next) that names, in code, the command that measured it: a benchmark script, `kgrag eval`,
    the demo, the tests, `time`. Numbers in code and option values written as code are not prose."""
    unsourced = [f"{name_of(doc)}:{finding}" for doc in DOCUMENTS
                 for finding in _unsourced(doc.read_text(encoding="utf-8"))]
    assert not unsourced, "numbers with no command in their section:\n" + "\n".join(unsourced)


def test_the_number_rule_tells_measurements_from_versions_settings_and_code():
    """The rule above passes the docs only if it sees their numbers: measurements are found (A), what
    is no measurement is not (B), a command in a span over two lines (C) or in a block whose comment
    looks like a heading (D) counts."""
    page = ("# A\n\nHits@1 0.948 → 0.949 (F1), 2.2× faster, 10-100× slower, 0.1–0.4 ms, 55 s, 24 GiB, 20%, 1 / 2 / 3 ms.\n"
            "## B\n\nHTTP 422s, LadybugDB 0.22 and Kùzu 0.11.3, `-o weight=0.25`, `k1=1.5`,\n"
            "≥ 0.75, lines over 64 KiB, (by default 64 KiB), \"a limit of 30,000 ms\", 400 lines.\n"
            "```bash\nkgrag ask q --db mydb   # 7 ms\n```\n"
            "## C\n\nIt took 3 s (`python\nbenchmarks/x.py --db d`).\n## D\n\nAbout 2 ms.\n"
            "```bash\n# 2 ms: a comment, not a heading\ntime kgrag ask q --db d\n```\n")
    assert _unsourced(page) == [("1 [A], lines [3]: ['0.948', '0.949', '2.2×', '10-100×', '0.1–0.4 ms', '55 s', "
                                 "'24 GiB', '20%', '1 / 2 / 3 ms']")]


_FIGURE = rf"(?:about |~|≈|\*\*|\()*\s?{_NUMBER}"  # a figure, as prose writes it
HISTORY = re.compile(  # a figure, its unit and a word or two, an arrow, a figure; or "from X to Y"
    rf"(?<![\w.,/–-]){_NUMBER}(?:[^\S\n]*[^\s\d→]+){{0,3}}?\s*→\s*{_FIGURE}"
    rf"|\bfrom\s+{_FIGURE}(?:\s?[–-]\s?{_NUMBER}|\s/\s{_NUMBER})*[^\s\d]*(?:\s+[^\s\d]\S*){{0,3}}?\s+to\s+{_FIGURE}")


def _history(page: str) -> list[int]:
    """Line numbers of the prose (not code, not quotes) where a figure turns into another."""
    found = []
    for _, _, _, prose in _sections(page):
        text = "\n".join(line for _, line in prose)
        found += [prose[text.count("\n", 0, m.start())][0] for m in HISTORY.finditer(text)]
    return list(dict.fromkeys(found))


def test_the_docs_state_what_is_and_leave_history_to_the_changelog():
    """Issue #40: a page says what a method does now and why, with figures its named command gives
    today; "0.85 → 0.88" or "from 22 ms to 16 ms" is a development log, which CHANGELOG.md keeps."""
    history = [f"{name_of(doc)}:{line}" for doc in DOCUMENTS for line in _history(doc.read_text(encoding="utf-8"))]
    assert not history, "history belongs in CHANGELOG.md:\n" + "\n".join(history)


def test_the_history_rule_tells_a_change_from_a_flow():
    """What the rule above flags (a before and after, also over a line break or in a series) and what
    it leaves alone (an arrow between words, a figure in code, a range, a count of workers written
    with "to" but no "from")."""
    page = ("# A\n\nHits@1 0.8525 → 0.885, 13 → 8 ms, 2.0 / 5.3 / 1.2 → **0.17 / 0.75 ms**,\n"
            "latency went from 22–25 ms p50 to\n16 ms; from 1.55 / 1.57 ms to 0.62 / 0.61 ms,\n"
            "a 2.8 ms full argsort → about 1.5 ms, from 0.946 to 0.958, from 1.41× its p50 to 1.29×.\n"
            "## B\n\nQuestion → pattern graph → answer, person→film, `13 → 8 ms`, 1–2 ms,\n"
            "\"from 3 to 4\", 2 to 4 workers, seed → expand → re-rank, from the 10 nearest to each.\n"
            "```text\n0.1 → 0.2\n```\n")
    assert _history(page) == [3, 4, 5, 6]
