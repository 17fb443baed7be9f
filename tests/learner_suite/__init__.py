"""A suite of learners' BPE trainers and encoders, written the way learners write them, each with the
verdict the checkers must give.

Each program under ``trainers/`` and ``encoders/`` is a whole, correct file in one well-known shape
(minbpe's RegexTokenizer, the Sennrich et al. paper's code, the Hugging Face course's chapter 6,
Stanford CS336's assignment 1, OpenAI's GPT-2 ``encoder.py``, a textbook's longest match). A case
(:mod:`tests.learner_suite.cases`) is one of them with one or two lines changed, as a learner's
mistake changes them (the pick, the loop bound, the replace, the split, the special-token cut...),
and the verdict expected. :mod:`tests.learner_suite.run` runs a case through the command line, as
a learner does: ``check --command`` runs the trainer on the corpus, ``check-encode --command
--batch`` runs the encoder on the probe texts (the page reads the same output from a file).
``tests/test_learner_suite.py`` runs every case; ``scripts/checker_table.py`` writes the table of
``docs/checkers.md`` from the same runs. The programs share no code with the engine, nor with one
another: each is read as a learner's file would be.
"""
