"""Writes the bad-input corpus of this directory: `python tests/data/bad/make_corpus.py`.

Each file is named by what is wrong with it; docs/errors.md gives each one's outcome under every mode, and
tests/test_bad_inputs.py checks it. Files too large to keep in git (a 10 MB field, a line longer than
batchBytes, 5,000 columns) are made by the test itself.
"""

from __future__ import annotations

import bz2
import gzip
import json
from pathlib import Path

HERE = Path(__file__).resolve().parent


def put(name: str, text: str) -> None:
    (HERE / name).write_text(text)


def csv(name: str, text: str | bytes) -> None:
    (HERE / name).write_bytes(text.encode("utf-8") if isinstance(text, str) else text)


def main() -> None:
    for old in HERE.iterdir():
        if old.name not in ("make_corpus.py",):
            old.unlink()
    good = "id,name\n1,ann\n2,bob\n"
    # --- CSV: quotes
    csv("unterminated_quote_at_end.csv", 'id,name\n1,ann\n2,"bob\n')
    csv("unterminated_quote_mid_file.csv", 'id,name\n1,"ann\n2,bob\n3,cy\n')
    csv("quote_inside_unquoted_field.csv", 'id,name\n1,an"n\n2,bo"b"\n')
    csv("stray_quote_after_closing_quote.csv", 'id,name\n1,"ann"x\n2,bob\n')
    csv("doubled_quotes_inside_quotes.csv", 'id,name\n1,"say ""hi"""\n2,bob\n')
    csv("quoted_line_end.csv", 'id,name\n1,"line one\nline two"\n2,bob\n')
    csv("unterminated_quote_in_header.csv", 'id,"name\n1,ann\n')
    # --- CSV: shape
    csv("ragged_short_rows.csv", "id,name,age\n1,ann\n2\n3,cy,30\n")
    csv("ragged_long_rows.csv", "id,name\n1,ann,extra\n2,bob,x,y\n")
    csv("only_delimiters.csv", "id,name\n,\n,,\n")
    csv("duplicate_headers.csv", "id,id,ID\n1,2,3\n")
    csv("blank_headers.csv", "id,,name,\n1,a,ann,b\n")
    csv("header_only.csv", "id,name\n")
    csv("header_only_no_newline.csv", "id,name")
    csv("empty.csv", "")
    csv("whitespace_only.csv", "  \n\t\n   \n")
    csv("blank_lines_everywhere.csv", "\n\nid,name\n\n1,ann\n\n\n2,bob\n\n")
    csv("trailing_delimiter.csv", "id,name,\n1,ann,\n")
    # --- CSV: bytes
    csv("nul_bytes.csv", b"id,name\n1,a\x00nn\n2,bob\x00\n")
    csv("invalid_utf8.csv", b"id,name\n1,\xff\xfeann\n2,b\xc3\x28b\n")
    csv("bom_at_start.csv", b"\xef\xbb\xbfid,name\n1,ann\n")
    csv("bom_in_the_middle.csv", b"id,name\n1,ann\n\xef\xbb\xbf2,bob\n")
    csv("mixed_crlf_cr_lf.csv", b"id,name\r\n1,ann\r2,bob\n3,cy\r\n")
    csv("cr_only_line_ends.csv", b"id,name\r1,ann\r2,bob\r")
    csv("binary_garbage.csv", bytes(range(256)) * 4)
    csv("control_characters.csv", "id,name\n1,a\x01\x02nn\n2,\x1bbob\n")
    csv("tab_in_csv.csv", "id,name\n1,a\tnn\n2,bob\t\n")
    # --- CSV: values into a provided schema (the test reads these with providedSchema "id INT, name STRING")
    csv("typed_not_a_number.csv", "id,name\n1,ann\nx,bob\n3,cy\n")
    csv("typed_number_too_large.csv", "id,name\n1,ann\n99999999999999999999,bob\n")
    csv("typed_blank_number.csv", "id,name\n1,ann\n ,bob\n,cy\n")
    csv("typed_number_with_spaces.csv", "id,name\n 1 ,ann\n2 ,bob\n")
    csv("typed_float_in_int.csv", "id,name\n1.5,ann\n2,bob\n")
    # --- CSV: compression
    csv("truncated.csv.gz", gzip.compress(good.encode() * 50)[:-40])
    csv("corrupt.csv.gz", b"\x1f\x8b\x08\x00" + b"not really gzip data" * 5)
    csv("not_gzip_at_all.csv.gz", good)
    csv("truncated.csv.bz2", bz2.compress(good.encode() * 50)[:-20])
    csv("corrupt.csv.bz2", b"BZh91AY&SY" + b"garbage" * 10)
    csv("empty.csv.gz", gzip.compress(b""))
    # --- JSON
    put("trailing_comma_in_object.json", '{"id": 1, "name": "ann",}\n{"id": 2, "name": "bob"}\n')
    put("trailing_comma_in_array.json", '{"id": 1, "tags": ["a", "b",]}\n{"id": 2, "tags": []}\n')
    put("unclosed_object_at_end.json", '{"id": 1}\n{"id": 2, "name": "bo\n')
    put("unclosed_object_mid_file.json", '{"id": 1\n{"id": 2}\n{"id": 3}\n')
    put("deep_nesting_1000.json", '{"a": ' * 1000 + "1" + "}" * 1000 + "\n")
    put("deep_array_nesting_1000.json", '{"a": ' + "[" * 1000 + "1" + "]" * 1000 + "}\n")
    put("huge_integer.json", '{"n": 1}\n{"n": 123456789012345678901234567890}\n')
    put("huge_exponent.json", '{"x": 1.5}\n{"x": 1e400}\n{"x": -1e400}\n')
    put("nan_and_infinity.json", '{"x": NaN}\n{"x": Infinity}\n{"x": -Infinity}\n{"x": 1.0}\n')
    put("duplicate_keys.json", '{"id": 1, "id": 2}\n{"id": 3, "ID": 4}\n')
    put("number_where_object_was.json", '{"m": {"a": 1}}\n{"m": 5}\n')
    put("object_where_number_was.json", '{"m": 5}\n{"m": {"a": 1}}\n')
    put("array_where_string_was.json", '{"s": "x"}\n{"s": ["y", "z"]}\n')
    put("mixed_array_elements.json", '{"a": [1, "two", {"three": 3}, null, [4]]}\n')
    put("null_everywhere.json", '{"a": null, "m": null, "l": null}\n{"a": null, "l": [null]}\n')
    put("empty_object_and_array.json", '{}\n{"m": {}, "l": []}\n')
    put("scalars_at_top_level.json", '1\n"two"\ntrue\nnull\n')
    put("root_array_of_objects.json", '[{"id": 1}, {"id": 2}]\n')
    put("root_array_broken.json", '[{"id": 1}, {"id": 2,}]\n')
    put("garbage_between_records.json", '{"id": 1}\nthis is not json\n{"id": 2}\n')
    csv("binary_garbage.json", bytes(range(256)) * 4)
    csv("nul_bytes.json", b'{"id": 1, "s": "a\x00b"}\n{"id": 2}\n')
    csv("invalid_utf8.json", b'{"id": 1, "s": "\xff\xfe"}\n{"id": 2}\n')
    put("blank_and_whitespace_keys.json", '{"": 1, "  ": 2, " id ": 3}\n')
    put("key_looks_like_a_path.json", '{"../../etc/passwd": 1, "a/b": 2, "c.d": 3}\n')
    put("header_like_a_path.csv", "../../etc/passwd,a/b,c.d\n1,2,3\n")
    put("empty.json", "")
    put("whitespace_only.json", "  \n\n\t\n")
    put("comment_lines.json", '// a comment\n{"id": 1}\n# another\n{"id": 2}\n')
    put("single_quotes.json", "{'id': 1, 'name': 'ann'}\n")
    put("unquoted_keys.json", '{id: 1, name: "ann"}\n')
    put("typed_string_in_number.json", '{"id": 1}\n{"id": "x"}\n{"id": 3}\n')
    print(json.dumps(sorted(p.name for p in HERE.iterdir() if p.name != "make_corpus.py")))


if __name__ == "__main__":
    main()
