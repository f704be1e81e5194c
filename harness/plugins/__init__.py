"""Parser plugins: the contract (base, protocol), the ways to run one (worker, persistent,
oneshot), the registry, and the built-in plugins."""
from .base import ALL, FULL, HEADER_ONLY, BaseParser, Capabilities, ParseError, Parser, Unsupported

__all__ = ["ALL", "FULL", "HEADER_ONLY", "BaseParser", "Capabilities", "ParseError", "Parser", "Unsupported"]
