"""Check my BPE reads merges in the shapes learners write, and every one-file format of the registry;
it refuses anything else in one line that names the shape to write, with an example, and never
loads a pickle.

Expected pairs are written by hand from each file.
"""

from __future__ import annotations

import io
import json
import pickle
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe import Tokenizer
from bpe.app import pages
from bpe.checking import merge_shapes, read_learner_merges
from bpe.checking.handwritten import HANDWRITTEN
from bpe.errors import FormatError
from bpe.formats import all_formats, export_tokenizer, files

from .apptest_support import open_page
from .examples import examples
from .format_samples import run_held_by
from .test_formats_registry import TOY

SPACE_T_HE = ((b" ", b"t"), (b" t", b"he"))

# (file name, contents, shape, pairs): decoded strings keep their spaces in every handwritten shape
READ = [
    ("decoded.txt", "  t\n t he\n", "text", SPACE_T_HE),
    ("decoded-known.txt", "  t\nh e\n t he\na  t\n", "text", ((b" ", b"t"), (b"h", b"e"), (b" t", b"he"), (b"a", b" t"))),
    ("marker.txt", "e s\nes t</w>\n", "text", ((b"e", b"s"), (b"es", b"t</w>"))),
    ("repr.txt", "b' ' b't'\nb' t' b'he'\n", "quoted", SPACE_T_HE),
    ("printed.txt", "[(b' ', b't'), (b' t', b'he')]", "quoted", SPACE_T_HE),
    ("strings.txt", "(' ', 't')\n(\" t\", 'he')\n", "quoted", SPACE_T_HE),
    ("bytes.txt", "(b'\\xc3', b'\\xa9')\n", "quoted", ((b"\xc3", b"\xa9"),)),
    ("pairs.json", '[[" ", "t"], [" t", "he"]]', "json", SPACE_T_HE),
    ("gpt2.json", '[["Ġ", "t"], ["Ġt", "he"]]', "json", SPACE_T_HE),
    ("bytes.json", "[[[32], [116]], [[32, 116], [104, 101]]]", "json", SPACE_T_HE),
    ("ids.json", "[[32, 116], [256, 104]]", "json", ((b" ", b"t"), (b" t", b"h"))),
    ("hf-style.json", '{"merges": ["Ġ t", "Ġt he"]}', "json", SPACE_T_HE),
    ("train.json", '{"merges": [{"left_hex": "20", "right_hex": "74"}, {"left_hex": "2074", "right_hex": "6865"}]}',
     "json", SPACE_T_HE),
    ("tabs.tsv", " \tt\n t\the\n", "tab", SPACE_T_HE),
    ("vocab.bpe", "#version: 0.2\nĠ t\nĠt he\n", "gpt2", SPACE_T_HE),
    ("latin1.bpe", "Ã ©\n", "gpt2", ((b"\xc3", b"\xa9"),)),
    ("bpe.codes", "#version: 0.2\ne s\nes t</w>\n", "subword-nmt", ((b"e", b"s"), (b"es", b"t</w>"))),
    ("my.model", "minbpe v1\n\n0\n32 116\n256 104\n", "minbpe", ((b" ", b"t"), (b" t", b"h"))),
    ("repeats.txt", "t h\nt h\n", "text", ((b"t", b"h"), (b"t", b"h"))),
]


@pytest.mark.parametrize("name, contents, shape, pairs", READ, ids=[row[0] for row in READ])
def test_every_shape_learners_write_is_read_with_spaces_and_repeats_kept(name, contents, shape, pairs):
    read = read_learner_merges(contents.encode(), name=name)
    assert (read.shape, read.pairs) == (shape, pairs)


ONE_FILE_FORMATS = [entry for entry in all_formats() if entry.reads == 1]
"""The formats Check my BPE reads (a learner uploads one file), read from the registry."""


@pytest.mark.parametrize("entry", ONE_FILE_FORMATS, ids=lambda entry: entry.name)
def test_every_one_file_format_of_the_registry_is_recognized_by_its_own_recogniser_alone_and_read(entry):
    assert entry.recognizes is not None, (
        f"format {entry.name!r} has no recognizes: Check my BPE reads its files only when the learner names the shape; "
        "give its TokenizerFormat a recognizes (a header, a JSON key, the shape of its lines)"
    )
    trace = run_held_by(entry)
    contents = export_tokenizer(Tokenizer.from_trace(trace), format=entry.name)[entry.file_names[0]]
    data = contents.encode() if isinstance(contents, str) else contents
    assert [other.name for other in ONE_FILE_FORMATS if other.recognizes is not None and other.recognizes(data)] == [entry.name]
    read = read_learner_merges(data, name=entry.file_names[0])
    tokens, marker = trace.tokens, trace.settings.end_of_word
    assert read.shape == entry.name
    assert len(read.pairs) == len(trace.steps)
    assert read.pairs[0] == tuple(tokens[part].data + (marker.encode() if tokens[part].ends_word else b"")
                                  for part in (trace.steps[0].left, trace.steps[0].right))


def test_a_format_added_to_the_registry_reaches_the_checker_with_no_other_edit(monkeypatch):
    recognized = replace(TOY, recognizes=lambda contents: contents[:1].isdigit())
    registered = files.FORMATS
    monkeypatch.setattr(files, "FORMATS", registered.with_entries(TOY))
    assert "toy" in merge_shapes()
    assert read_learner_merges(b"32 116\n256 104\n", name="a.toy", shape="toy").pairs == ((b" ", b"t"), (b" t", b"h"))
    assert read_learner_merges(b"32 116\n", name="a.toy").shape == "text"  # no way to recognize it: read by name only
    monkeypatch.setattr(files, "FORMATS", registered.with_entries(recognized))
    assert read_learner_merges(b"32 116\n256 104\n", name="a.toy").shape == "toy"
    assert TOY.title in open_page(pages.CHECK.file).selectbox(key="w.check_shape").options  # the page's "Read it as"


# (contents, what the one-line refusal says, the shape it names with its example line): a format's own refusal
# names JSON pairs, for merges a learner's own code wrote
REFUSED = [
    ("e s t\n", "expected two tokens separated by one space, got 'e·s·t'. Write it as merges lines of plain text", "text"),
    ("a  b\n", "expected two tokens separated by one space, got 'a··b'", "text"),  # neither 'a·' nor '·b' was made
    ("  b\na  \na  b\n", "line 3: cannot tell which space separates the two tokens of 'a··b' ('a' + '·b' or 'a·' + 'b')", "text"),
    ('{"merges": [{"left_hex": "65", "right_hex": "73"}], "settings": [1]}', "its settings are list, not an object", "json"),
    ('{"merges": [{"left_hex": "65"}]}', "merge 1 is {'left_hex': '65'}, not a record with left_hex and right_hex", "json"),
    ('{"merges": [{"left_hex": 5, "right_hex": "73"}]}', "not a record with left_hex and right_hex", "json"),
    ('{"merges": [{"left_hex": "65", "right_hex": "73"}], "settings": {"unit": 5}}', "unknown unit 5", "json"),
    ('{"merges": [[" t", 5]]}', "merge 1 is [' t', 5], not a pair", "json"),
    ('[["a", "b"], [1, 2]]', "merge 2 is [1, 2], not like the first, strings", "json"),
    ("[[300, 1]]", "uses id 300, which no byte nor earlier merge makes", "json"),
    ('{"merges": 3}', "holds JSON that is no tokenizer file and has no list of merges", "json"),
    ('{"merges": [', "is not valid JSON", "json"),
    ("[[1, 2], [1]]", "merge 2 is [1], not like the first, ids", "json"),
    ('["Ġt he", "a b c"]', "merge 2: expected two tokens separated by one space", "json"),
    ("b'a' b'b' b'c'\n", "has no partner", "quoted"),
    ("b'a' 'b'\n", "mixes bytes (b'...') and text", "quoted"),
    ("x\ty\tz\n", "expected two tokens separated by a tab", "tab"),
    ("\n\n", "holds no merges", "text"),
    ("#version: 0.2\ne s\nes t</w>\nab c\n", "read as subword-nmt codes file", "json"),
]


@pytest.mark.parametrize("contents, says, shape", REFUSED, ids=[row[1][:40] for row in REFUSED])
def test_a_malformed_merges_file_is_refused_in_one_line_that_names_the_shape_to_write(contents, says, shape):
    with pytest.raises(FormatError) as refused:
        read_learner_merges(contents.encode(), name="merges.txt")
    message = str(refused.value)
    assert says in message and "\n" not in message
    named = next(entry for entry in HANDWRITTEN if entry.name == shape)
    assert f"{named.title}, e.g. {named.example}" in message


class _Tripwire:
    """Unpickling this calls :func:`_sprung`: a test that finds it sprung has loaded a pickle."""

    def __reduce__(self):
        return (_sprung, ())


SPRUNG: list[bool] = []


def _sprung():
    SPRUNG.append(True)
    return []


@pytest.mark.parametrize("protocol", [0, 1, 2, pickle.HIGHEST_PROTOCOL])
@pytest.mark.parametrize("name", ["merges.pkl", "merges.txt"])
@pytest.mark.parametrize("container", [list, tuple, set], ids=["list", "tuple", "set"])  # (lp0 / (( / c__builtin__
def test_a_pickle_is_refused_without_loading_it_with_the_python_that_writes_json_instead(protocol, name, container):
    data = pickle.dumps(container([_Tripwire(), (b" ", b"t")]), protocol=protocol)
    with pytest.raises(FormatError) as refused:
        read_learner_merges(data, name=name)
    assert SPRUNG == []
    message = str(refused.value)
    assert message.startswith(f"{name} is a Python pickle, which is never loaded here") and "\n" not in message
    code = message.split("merges.json: ", 1)[1]
    assert code == 'import json; json.dump([[list(a), list(b)] for a, b in merges], open("merges.json", "w"))'
    written = io.StringIO()
    exec(code, {"merges": [(b" ", b"t"), (b" t", b"he")], "open": lambda path, mode: written})  # a CS336-style list
    assert read_learner_merges(written.getvalue(), name="merges.json").pairs == SPACE_T_HE  # what it writes is read


JSONISH = st.recursive(st.none() | st.booleans() | st.integers(-5, 400) | st.text(max_size=4),
                       lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
                           st.sampled_from(["merges", "settings", "left_hex", "right_hex", "left", "unit", "model",
                                            "format"]), inner, max_size=3), max_leaves=12)


@settings(max_examples=examples(300), deadline=None)
@given(value=JSONISH)
def test_any_json_is_read_or_refused_in_one_line(value):
    try:
        read = read_learner_merges(json.dumps(value), name="fuzz.json")
    except FormatError as error:
        assert str(error) and "\n" not in str(error)
        return
    assert read.pairs and all(isinstance(a, bytes) and isinstance(b, bytes) for a, b in read.pairs)


@settings(max_examples=examples(200), deadline=None)
@given(raw=st.lists(st.sampled_from(["b'a'", "'b'", " ", ",", "(", ")", "[", "]", "\n", "\t", "a", "'", "\\"]),
                    max_size=12).map("".join))
def test_any_quoted_or_tabbed_text_is_read_or_refused_in_one_line(raw):
    try:
        read = read_learner_merges(raw, name="fuzz.txt")
    except FormatError as error:
        assert str(error) and "\n" not in str(error)
        return
    assert read.pairs


def test_a_recognized_file_whose_lines_repeat_is_read_as_lines_so_every_repeat_counts():
    codes = "#version: 0.2\nt h</w>\nt h</w>\ne s\n"  # subword-nmt's reader keeps the first of repeated lines
    read = read_learner_merges(codes, name="bpe.codes")
    assert (read.shape, read.pairs) == ("text", ((b"t", b"h</w>"), (b"t", b"h</w>"), (b"e", b"s")))
    model = "minbpe v1\n\n0\n97 97\n97 97\n"  # not merge lines: minbpe's reader says what it thinks (its merges are a dict)
    with pytest.raises(FormatError, match=r"my.model line 5: repeats the merge 97 97 of line 4 \(read as minbpe .model"):
        read_learner_merges(model, name="my.model")
