"""Index formulas (``expr``), source code for kernels (``emit``) and numpy tables (``evaluate``)."""
from .expr import index_expr, coord_expr, FloorDiv
from .emit import emit, count_ops, canonical_op_count, lower, LANGS
from .evaluate import evaluate

__all__ = ["index_expr", "coord_expr", "FloorDiv", "emit", "count_ops", "canonical_op_count", "lower",
           "LANGS", "evaluate"]
