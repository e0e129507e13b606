"""CuTe notation: ``parse`` it in, print it out (``to_str``), substitute values (``subs``)."""
from .notation import parse, subs, to_str

__all__ = ["parse", "subs", "to_str"]
