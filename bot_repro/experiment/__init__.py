"""Every experiment, one command: ``python -m bot_repro.experiment run|report|publish|list NAME [overrides]``.

``spec`` reads an experiment file (``conf/experiment/<name>.yaml``: training overrides + ``report:``),
``report`` is the one report path (runs -> report folder), ``policy`` prepares the starting policy a
sweep shares, ``run`` chains training, post-training evaluation, report and publish, and ``cli`` is
the command line. The paper's figures, the CPU study (``conf/study.yaml``), ``make demo`` and the
real-model comparison all go through it.
"""
