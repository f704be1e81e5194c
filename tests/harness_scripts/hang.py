"""A one-shot testee that never answers."""
import time

time.sleep(3600)
