"""The book's tools on its pages' runs, which :mod:`pagerun` makes and keeps: ``make
doctest``'s verdict and the warm processes that answer it, the runtime that every page's
doctests import, what the installed JAX names (which the build asks the kernel), and the
tool that rewrites stale outputs on the pages from real runs. (The bundle for machines
without Sphinx, and the recording of another backend's outputs, are the lab's:
:mod:`jaxbook_lab`.)"""
