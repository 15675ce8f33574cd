"""``python -m drivers.emulator --pty`` / ``--tcp PORT``: see :mod:`drivers.emulator.cli`."""

import sys

from drivers.emulator.cli import main

sys.exit(main())
