"""The base: errors, static and dynamic integers, readable formulas, the decision procedure, int tuples."""
