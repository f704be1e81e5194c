"""The script spark-submit runs (it needs a file, not a module), from a checkout:
`spark-submit --archives build/spark_env.tar.gz#environment spark_checks/submit.py run ...`
(docs/spark.md). spark-submit puts this file's directory on sys.path, not the checkout's root:
the root goes first, so the driver runs this checkout's code, as the archive's executors do."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from spark_checks.cli import main  # noqa: E402 (after the path it is found on)

if __name__ == "__main__":
    sys.exit(main())
