"""What a person looks at: the text table of ``print_layout``."""
from .table import layout_table, print_layout

__all__ = ["layout_table", "print_layout"]
