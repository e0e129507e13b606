"""CuTe's atoms as data: the MMA instructions' thread/value layouts, by CuTe's struct names."""
from .mma_traits import MMA_Traits, Major, ScaleIn, mma_atom_names, sizeof_bits
from .mma_atom import MMA_Atom

__all__ = ["MMA_Traits", "MMA_Atom", "Major", "ScaleIn", "mma_atom_names", "sizeof_bits"]
