"""Check my encoder: the ids your own encoder gave some texts against the tokenizer's own, and the
one verdict: a classic mistake (or two on two lines at once) that reproduces every id, with its fix,
or "not one of the mistakes I know" and what to print. The page is thin: the form and the result
live in ``ui.check_encoder``, the check in ``bpe.checking.encode_check``."""

from bpe.app import pages
from ui.check_encoder import encoder_page
from ui.render import page_setup, page_title

page_setup(pages.CHECK_ENCODER)
page_title(pages.CHECK_ENCODER)
encoder_page()
