import sys

from bot_repro.experiment.cli import main

sys.exit(main())
