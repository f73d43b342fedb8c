"""Code extraction from responses and the source-map decoder (no Node or browser needed)."""

from __future__ import annotations

import json

from bot_repro.tasks.react.extract import extract_code
from bot_repro.tasks.react.sourcemap import SourceMap, line_from_stack


def test_first_tsx_block_with_offsets_and_start_line():
    response = "Here is the app:\n\n```tsx\nline0\nline1\n```\nAnd a note.\n```ts\nother\n```\n"
    ex = extract_code(response)
    assert ex.code == "line0\nline1"
    assert response[ex.start:ex.end] == ex.code
    assert ex.start_line == 3 and ex.response_line(1) == 4
    assert response.split("\n")[ex.response_line(1)] == "line1"
    assert ex.lang == "tsx" and ex.closed


def test_code_language_preferred_over_earlier_untagged_block():
    response = "```\nnpm install nothing-at-all --save-dev\n```\n```jsx\nconst a = 1;\n```"
    assert extract_code(response).code == "const a = 1;"


def test_largest_block_when_no_code_language():
    response = "```\nshort\n```\n\n```text\na much longer block\nwith two lines\n```"
    ex = extract_code(response)
    assert ex.code == "a much longer block\nwith two lines" and ex.start_line == 5


def test_no_fence_gives_none_and_empty_block_is_empty():
    assert extract_code("export default function App() { return null }") is None
    assert extract_code("```tsx\n```").code == ""


def test_unclosed_block_runs_to_end():
    response = "Sure.\n```tsx\nexport default function App() {\n  return <div/>;"
    ex = extract_code(response)
    assert not ex.closed and ex.code.endswith("<div/>;") and ex.start_line == 2


def test_think_section_is_skipped_but_offsets_are_global():
    response = "<think>\ndraft:\n```tsx\nbad draft\n```\n</think>\nFinal:\n```tsx\ngood\n```"
    ex = extract_code(response)
    assert ex.code == "good" and response[ex.start:ex.end] == "good"
    assert ex.start_line == 8


def test_longer_fence_and_tilde_fences():
    response = "````tsx\nconst s = `\n```\n`;\n````\n~~~js\nx\n~~~"
    assert extract_code(response).code == "const s = `\n```\n`;"


def test_sourcemap_maps_generated_positions_to_sample_lines():
    # Segments: gen line 0 col 0 -> src line 0; col 5 -> src line 2; gen line 1 col 2 -> src line 3.
    smap = SourceMap(json.dumps({"version": 3, "sources": ["App.tsx"], "mappings": "AAAA,KAEA;EACA"}))
    assert smap.original_line(0, 0) == 0
    assert smap.original_line(0, 4) == 0
    assert smap.original_line(0, 9) == 2
    assert smap.original_line(1, 7) == 3
    assert smap.original_line(5, 0) is None
    stack = "Error: boom\n    at x (http://app.local/vendor.js:1:10)\n    at App (http://app.local/app.js:2:8)"
    assert line_from_stack(stack, smap) == 3
    assert line_from_stack("no frames", smap) is None
