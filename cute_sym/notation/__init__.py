"""CuTe notation: ``parse`` it in, print it out (``to_str``), substitute values (``subs``).

``parse(text, dialect="dsl")`` reads the CuTe Python DSL's printing (:mod:`.dsl_dialect`).
"""
from .notation import parse, subs, to_str
from . import dsl_dialect as _dsl_dialect    # registers the "dsl" dialect  # noqa: F401

__all__ = ["parse", "subs", "to_str"]
