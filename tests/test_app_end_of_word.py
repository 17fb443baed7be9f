"""Settings for reproducing the classic trainers, in the app: the end-of-word mode (with its
explanation) and whether special tokens are trained on as text; both kept in the link."""

from .apptest_support import TRAIN, errors, narration, open_page


def test_the_marker_placement_choice_retrains_explains_itself_and_goes_into_the_link():
    at = open_page(TRAIN, preset="sennrich-paper", step="2")
    assert "Merge 2 of 10: es + t → est" in narration(at)
    at.radio(key="w.eowmode").set_value("attached").run()
    assert not at.exception and not errors(at)
    assert "Merge 2 of 10: es + t</w> → est</w>" in narration(at)
    assert any("**attached**" in caption.value and "*Used by subword-nmt's learn\\_bpe" in caption.value
               and "**separate**" in caption.value for caption in at.sidebar.caption)
    assert at.query_params["eowmode"] == "attached"


def test_a_link_with_the_attached_mode_opens_it():
    at = open_page(TRAIN, preset="sennrich-paper", step="2", eowmode="attached")
    assert at.radio(key="w.eowmode").value == "attached"
    assert "Merge 2 of 10: es + t</w> → est</w>" in narration(at)


def test_without_a_marker_there_is_no_placement_to_choose():
    at = open_page(TRAIN, preset="sennrich")
    assert not [radio for radio in at.radio if radio.key == "w.eowmode"]


def test_special_tokens_can_be_trained_on_as_text_and_the_link_says_so():
    at = open_page(TRAIN, preset="own-text", special="<|endoftext|>", specialtext="1")
    assert not at.exception and not errors(at)
    assert at.checkbox(key="w.specialtext").value is True
    at.checkbox(key="w.specialtext").uncheck().run()
    assert "specialtext" not in at.query_params


def test_the_start_and_the_vocabulary_describe_attached_symbols_as_characters_not_markers():
    from bpe.training.presets import PRESETS
    from bpe.training.settings import TrainSettings
    from bpe.training.trainer import train
    from bpe.views.narration import narrate_step
    from bpe.views.tables import token_kind

    preset = PRESETS["sennrich-paper"]
    trace = train(preset.corpus(), TrainSettings(**{**preset.settings.to_dict(), "end_of_word_mode": "attached"}))
    # low, lower, newest, widest end in w, r, t: three symbols carry the marker, each a character
    assert [token_kind(trace, i) for i, token in enumerate(trace.base) if token.ends_word] == ["char"] * 3
    first = narrate_step(trace, 0).sentences[0]
    assert "the last of each word carrying </w>" in "".join(part for part in first if isinstance(part, str))
