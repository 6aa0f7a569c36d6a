"""The ``benchview`` command: the site as an installed tool (``benchview.cli``)."""
