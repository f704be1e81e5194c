"""Corpus-scale conformance runs on Spark (issue 6): the harness's checks, its plugins and the
mutation catalogue, run on executors over corpora and their mutants; results as Parquet. See
docs/spark.md."""
