#!/usr/bin/env bash
# Check that `pip install 'longdoc[databricks]'` still resolves quickly in a fresh venv, then
# install it and run the Databricks provider tests there. Run on a schedule or by hand
# (it downloads ~130 MB and takes minutes), not in every CI run; `.ci/run` stays fast.
#
#   .ci/databricks-extra.sh              resolve with a time budget, install, run the tests
#   .ci/databricks-extra.sh --resolve    resolve only (pip install --dry-run)
#
# Why a budget: the extra pulls ~175 packages (mlflow, databricks-connect), and without the
# constraints in pyproject.toml pip backtracked for more than 10 minutes. Resolution takes
# about 70 s of CPU today; LONGDOC_RESOLVE_BUDGET_S (default 480) is wall time, with room
# for a busy machine, and far below an unbounded backtrack.
set -euo pipefail
cd "$(dirname "$0")/.."

budget="${LONGDOC_RESOLVE_BUDGET_S:-480}"
venv="$(mktemp -d /tmp/longdoc-databricks.XXXXXX)"
trap 'rm -rf "$venv"' EXIT
python3 -m venv "$venv"
echo "resolving .[databricks] with $("$venv/bin/pip" --version | cut -d' ' -f1-2), budget ${budget} s" >&2

started=$SECONDS
if ! timeout "$budget" "$venv/bin/pip" install -q --dry-run --no-cache-dir -e '.[databricks]'; then
  echo "FAIL: .[databricks] did not resolve within ${budget} s; pip is backtracking again." >&2
  echo "Look for a new dependency cap with pip install -v --dry-run, and constrain the extra." >&2
  exit 1
fi
echo "resolved in $((SECONDS - started)) s" >&2
[[ "${1:-}" == "--resolve" ]] && exit 0

"$venv/bin/pip" install -q -e '.[databricks,test]'
"$venv/bin/pip" check
"$venv/bin/python" -c "import databricks_langchain"  # so the tests below cannot skip
"$venv/bin/python" -m pytest -q -p no:cacheprovider \
  tests/integration/test_providers_databricks.py tests/integration/test_providers.py
