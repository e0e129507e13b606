"""The public face of cute_sym: typed signatures (``types``, ``int_tuples``, ``algebra``,
``tensors``, ``pycute``), the conversion of a call's arguments and results (``face``) and the
static fast path (``fast_entry``). ``cute_sym/__init__.py`` re-exports them."""
