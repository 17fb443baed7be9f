"""Training: the trainer's loop (:mod:`.trainer`) and its helpers (the priority queue in
:mod:`.pair_queue`, counting and merging in :mod:`.pair_merge`, :mod:`.first_seen`,
:mod:`.language_counts`, :mod:`.sentencepiece_choice`), what chooses (:mod:`.tiebreak`,
:mod:`.objectives`), the settings, the record of a run (:mod:`.trace`), where a run starts
(:mod:`.start_state`), the built-in examples (:mod:`.presets`) and extending a tokenizer (:mod:`.extend`).
"""
