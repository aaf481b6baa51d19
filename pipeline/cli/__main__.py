"""`python -m pipeline.cli`: the same as the `longdoc` command."""

import sys

from pipeline.cli.app import app

sys.exit(app())
