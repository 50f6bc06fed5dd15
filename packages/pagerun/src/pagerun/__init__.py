"""Run a Sphinx project's doctests once, while each page is read, and show that one run.

- :mod:`pagerun.blocks`: a page's code as the engine runs it, and what each block printed.
- :mod:`pagerun.engine`: the one engine, which runs a page as ``sphinx.ext.doctest``'s
  builder would.
- :mod:`pagerun.kernel`: a child process of the build where every page runs.
- :mod:`pagerun.devices`: devices one process at a time may open (a TPU chip), and the lock
  at which the kernels of builds side by side take turns.
- :mod:`pagerun.pages`: a page Sphinx read as the engine's blocks; the run's record.
- :mod:`pagerun.verdict`: how every report of the runs names a failure and counts them.
- :mod:`pagerun.sphinxext`: the Sphinx extensions (``run``, ``measured``, ``testplot``).

Each module's public names are those in its ``__all__``; ``pagerun._compat``, which holds
every use of Python's and Sphinx's internals, is private.

The package imports the standard library, Sphinx and docutils, and nothing of the project
that uses it: the project says what is its own through configuration (``pagerun_*``
settings, each documented by the extension that adds it).
"""
