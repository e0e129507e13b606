"""Tensors and what partitions them: CuTe's tensors, MMA atoms and tiled MMAs."""
