"""CuTe's atoms as data: the MMA instructions' thread/value layouts, by CuTe's struct names."""
from .mma_traits import MMA_Traits, Major, ScaleIn, mma_atom_names, sizeof_bits

__all__ = ["MMA_Traits", "Major", "ScaleIn", "mma_atom_names", "sizeof_bits"]
