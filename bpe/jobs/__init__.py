"""Work run apart from the page's thread: the job board (:mod:`bpe.jobs.board`), its workers
(:mod:`bpe.jobs.worker`) and their budget (:mod:`bpe.jobs.budget`)."""
