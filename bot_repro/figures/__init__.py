"""The machinery the experiment command (``bot_repro.experiment``) runs figures and studies with.

``sweep`` composes an experiment config and runs its Hydra multirun of ``bot_repro.train``,
``runs`` loads an experiment's run folders into the analysis table, ``pairwise`` is figure 2's ABBA
win-rate evaluation and ``offline_eval`` evaluates a saved checkpoint (``bot_repro.evaluate``).
"""
