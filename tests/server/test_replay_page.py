"""The HTML replay page as text: its record, its policy and its bundled modules (the page
in a browser is tests/web/test_web_replay.py)."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from pathlib import Path

import pytest

from server.replay_page import ReplayPageError, bundle_modules, replay_page

FIXTURE = Path(__file__).parent.parent / "fixtures" / "replay-v1.jsonl"


def fixture_lines() -> list[str]:
    return FIXTURE.read_text(encoding="utf-8").splitlines()


def element_text(page: str, opening: str, tag: str) -> str:
    start = page.index(opening) + len(opening)
    return page[start : page.index(f"</{tag}>", start)]


def digest(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def test_the_page_holds_the_files_record_and_allows_its_own_code_only() -> None:
    lines = fixture_lines()
    page = replay_page(lines)
    record = json.loads(
        element_text(page, '<script type="application/json" id="replay-record">', "script")
    )
    assert record["header"] == json.loads(lines[0])
    assert record["events"] == [json.loads(line) for line in lines[1:]]
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page)
    assert policy is not None
    rules = dict(rule.strip().split(" ", 1) for rule in policy.group(1).split(";"))
    assert rules["connect-src"] == "'none'" and rules["default-src"] == "'none'"
    assert rules["script-src"] == digest(element_text(page, "<script>", "script"))
    assert rules["style-src"] == digest(element_text(page, "<style>", "style"))
    assert 'src="' not in page and "href=" not in page  # nothing loaded from a file or a URL


def test_a_table_name_cannot_end_the_inlined_record() -> None:
    lines = fixture_lines()
    header = json.loads(lines[0])
    header["table"] = "</script><script>alert(1)</script>"
    page = replay_page([json.dumps(header), *lines[1:]])
    assert page.count("</script>") == 2  # the record's and the code's own
    record = json.loads(element_text(page, 'id="replay-record">', "script"))
    assert record["header"]["table"] == header["table"]
    assert "<title>Replay: &lt;/script&gt;" in page


def test_the_bundler_turns_imports_into_reads_of_the_modules_exports() -> None:
    script = bundle_modules(
        [
            ("a.js", "export const A = 1;\nexport function twice(x) {\n  return 2 * x;\n}\n"),
            ("b.js", 'import { A, twice } from "./a.js";\nconst B = twice(A);\nexport { B };\n'),
        ]
    )
    assert 'modules["a.js"] = (() => {' in script and "return { A, twice };" in script
    assert 'const { A, twice } = modules["a.js"];' in script and "return { B };" in script
    assert "import " not in script and "export " not in script


def test_an_import_the_bundler_cannot_read_is_refused() -> None:
    with pytest.raises(ReplayPageError, match=r"c\.js"):
        bundle_modules([("c.js", 'import * as a from "./a.js";\n')])


def test_a_module_bundled_before_what_it_imports_is_refused() -> None:
    # Each module runs where it is bundled: reading an import bundled later would find
    # nothing (the page would stop with an error in the browser).
    later = [
        ("b.js", 'import { A } from "./a.js";\nexport const B = A;\n'),
        ("a.js", "export const A = 1;\n"),
    ]
    with pytest.raises(ReplayPageError, match=r"b\.js imports a\.js, not bundled"):
        bundle_modules(later)
    assert 'modules["b.js"]' in bundle_modules(reversed(later))
