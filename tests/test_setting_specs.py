"""A training setting is declared once (bpe/app/setting_specs.py): adding one entry puts it in the
app's state, its links and its sidebar, with no other edit.

The toy entry offers ``max_ties``, a real ``TrainSettings`` field the app does not offer yet, so
what it reaches is the engine's own settings."""

from dataclasses import dataclass, replace

import pytest

from bpe.app import setting_specs
from bpe.app.lab_state import LabState, check_knobs, lab_params
from bpe.app.setting_specs import SETTINGS, SettingSpec, check_specs, whole
from bpe.errors import SettingsError
from bpe.training.settings import TrainSettings

from .apptest_support import TRAIN, open_page

TOY = SettingSpec(
    "max_ties", "maxties", whole("maxties", 1, 1000), str, "Tied pairs listed per step", widget="number", low=1,
    help="How many of the pairs tied for the top count each step lists.",
)


@pytest.fixture
def with_toy(monkeypatch):
    """The registry with one more entry, as a newcomer would add it."""
    monkeypatch.setattr(setting_specs, "SETTINGS", (*SETTINGS, TOY))


def test_a_new_entry_is_a_field_of_the_state_with_the_examples_own_value(with_toy):
    state = LabState.for_source("sennrich")
    assert state.max_ties == 20  # TrainSettings' default, which the Sennrich example keeps
    assert state.to_settings().max_ties == 20


def test_a_new_entry_round_trips_through_the_link_and_reaches_the_engine(with_toy):
    chosen = LabState.for_source("sennrich").replace(max_ties=3, step=2)
    query = chosen.to_query()
    assert query == {"preset": "sennrich", "maxties": "3", "step": "2"}
    assert "maxties" in lab_params()  # so a link with only this parameter still sets the example
    assert LabState.from_query(query) == (chosen, [])
    assert chosen.to_settings().max_ties == 3


def test_a_bad_value_of_a_new_entry_warns_and_keeps_the_examples_value(with_toy):
    state, warnings = LabState.from_query({"preset": "sennrich", "maxties": "0"})
    assert warnings == ["maxties must be a whole number from 1 to 1,000, got '0': using 20"]
    assert state.max_ties == 20


def test_without_the_entry_the_parameter_is_not_read():
    state, warnings = LabState.from_query({"preset": "sennrich", "maxties": "3"})
    assert (state, warnings) == (LabState.for_source("sennrich"), [])
    assert "maxties" not in state.replace(max_ties=3).to_query()


def test_an_engine_setting_the_state_cannot_hold_is_an_error_at_import():
    @dataclass(frozen=True)
    class WiderSettings(TrainSettings):
        colour: "str" = "red"  # as the engine writes it (postponed annotations)

    check_knobs(LabState, TrainSettings)  # the real pair agrees
    with pytest.raises(SettingsError, match="LabState has no field colour: str .*add it to LabState"):
        check_knobs(LabState, WiderSettings)


def test_the_sidebar_draws_a_new_entry_and_its_widget_writes_the_link(with_toy):
    at = open_page(TRAIN, preset="sennrich")
    box = at.number_input(key="w.maxties")
    assert (box.label, box.value) == ("Tied pairs listed per step", 20)
    box.set_value(2).run()
    assert at.query_params["maxties"] == "2"
    assert at.session_state["bpe.lab"].to_settings().max_ties == 2


@pytest.mark.parametrize("spec, message", [
    (replace(TOY, name="colour"), "setting 'colour' is no TrainSettings field"),
    (replace(TOY, widget="slider"), "asks for the widget 'slider'"),
    (replace(TOY, param="minfreq"), "two settings share a param"),
], ids=["not an engine field", "unknown widget", "a taken parameter"])
def test_a_wrong_entry_is_an_error_when_the_registry_is_read(spec, message):
    with pytest.raises(SettingsError, match=message):
        check_specs((*SETTINGS, spec))


def test_every_declared_setting_round_trips_through_the_link():
    base = LabState.for_source("own-text")
    changed = base.replace(
        unit="char", pretokenizer="whitespace", end_of_word="</w>", end_of_word_mode="attached", tie_break="hf",
        min_frequency=3, special_tokens=("<s>", "</s>"), specials_as_text=True, transition=100, objective="wordpiece",
    )
    assert set(changed.to_query()) == {"preset", *(spec.param for spec in SETTINGS)}
    assert LabState.from_query(changed.to_query()) == (changed, [])
