"""Pictures of layouts, TV layouts, tensors, MMA and copy atoms, and the text tables.

* :mod:`.draw`: ``latex``/``print_latex`` (CuTe's TikZ text), ``svg``/``print_svg``
  (CuTe's SVG of an MMA; cute_sym's compact SVG of everything else), ``html``
  (one offline page with hover details), and their ``_tv`` forms.
* :mod:`.table`: CuTe's ``print_layout`` text table; :mod:`.tensor_text`: ``print_tensor``.
* :mod:`.notebook`: the Jupyter reprs; :mod:`.banks`: the bank-conflict picture.
* Underneath: :mod:`.model` (what a picture holds), :mod:`.objects` (pictures of
  tensors, MMAs and copies), :mod:`.latex`, :mod:`.svg`, :mod:`.html`, :mod:`.colors`.

This package is the top layer: nothing below imports it. It imports none of its
modules itself, so the text tables never load the drawing code (``import cute_sym``
stays fast); the public functions are ``cute_sym.latex``, ``cute_sym.svg``, ...
"""
