"""The script spark-submit runs (it needs a file, not a module):
`spark-submit --py-files build/spark_checks.zip spark_checks/submit.py run --corpus ... --out ...`."""
import sys

from spark_checks.cli import main

if __name__ == "__main__":
    sys.exit(main())
