"""A one-shot testee that dies of SIGSEGV on every file (and has no --hello)."""
import os
import signal

os.kill(os.getpid(), signal.SIGSEGV)
