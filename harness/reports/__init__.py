"""Reports of a run: JSON (machine), JUnit XML (CI), HTML (a person, at a glance)."""
