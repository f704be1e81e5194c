"""Real-server infrastructure: local server images, profiles, containers, reference decoders.

Everything here talks to real MySQL/MariaDB servers in Docker so the corpus
holds bytes that real servers wrote, not bytes we think they would write.
"""
