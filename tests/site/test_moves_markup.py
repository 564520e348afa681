"""The moves list's markup (backgammon/moves_markup.py): pure Python, no database."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from backgammon.move_records import GameRecord, MoveRow
from backgammon.moves_markup import moves_record_markup


class _Cells(HTMLParser):
    """Each table row's cell texts, and the text outside the table (headings, paragraphs)."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.classes: list[str | None] = []
        self.outside: list[str] = []
        self._in_cell = False
        self._in_table = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self._in_table = True
        elif tag == "tr":
            self.rows.append([])
            self.classes.append(dict(attrs).get("class"))
        elif tag in ("td", "th"):
            self._in_cell = True
            self.rows[-1].append("")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th"):
            self._in_cell = False
        elif tag == "table":
            self._in_table = False

    def handle_data(self, data: str) -> None:
        if self._in_cell:
            self.rows[-1][-1] += data
        elif not self._in_table and data.strip():
            self.outside.append(data.strip())


def _parsed(markup: str) -> _Cells:
    parser = _Cells()
    parser.feed(markup)
    return parser


def test_rows_are_numbered_black_left_white_right_with_messages_below_their_move() -> None:
    record = GameRecord(2, opening="Opening roll: alice 6, bob 1.", rows=[
        MoveRow(1, ["61: 13/7 8/7", None]),
        MoveRow(2, ["doubles to 2", "takes"], ["good luck", ""]),
        MoveRow(3, [None, "cannot move"]),
    ], result="alice won (2 points)")
    parsed = _parsed(moves_record_markup(record, black="alice", white="bob", numbered=True))
    assert parsed.rows == [["#", "alice", "bob"], ["1", "61: 13/7 8/7", ""], ["2", "doubles to 2", "takes"],
                           ["", "“good luck”", ""], ["3", "", "cannot move"]]
    assert parsed.classes[3] == "moves__message"
    assert parsed.outside == ["Game 2", "Opening roll: alice 6, bob 1.", "alice won (2 points)"]


def test_an_unnumbered_empty_record_is_nothing_at_all() -> None:
    assert moves_record_markup(GameRecord(1), black="a", white="b", numbered=False) == ""
    assert moves_record_markup(GameRecord(4), black="a", white="b", numbered=True) == "<h3>Game 4</h3>\n"


def test_every_text_is_escaped() -> None:
    hostile = '<script>alert("x")</script>&\''
    record = GameRecord(1, opening=hostile, rows=[MoveRow(1, [hostile, hostile], [hostile, ""])], result=hostile)
    markup = moves_record_markup(record, black=hostile, white=hostile, numbered=False)
    assert "<script>" not in markup and "\"x\"" not in markup
    assert len(re.findall(r"&lt;script&gt;alert\(&quot;x&quot;\)&lt;/script&gt;&amp;&#x27;", markup)) == 7
    parsed = _parsed(markup)
    assert parsed.rows[1] == ["1", hostile, hostile]
    assert parsed.rows[2] == ["", f"“{hostile}”", ""]
