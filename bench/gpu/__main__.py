"""``python -m bench.gpu``: the GPU check (``bench.gpu.cli``); exit status 1 when anything failed."""

import sys

from bench.gpu.cli import main

sys.exit(1 if main()["errors"] else 0)
