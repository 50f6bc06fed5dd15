"""Running the pages' code: the one engine, the kernel where pages run (where the build also
asks what the installed JAX has, :mod:`jaxbook.doctest.jax_names`), the record of each page's
run that a build keeps, ``make doctest``'s verdict on it, the runtime that every page's doctests
import, and the tool that rewrites stale outputs on the pages from real runs. (The bundle for
machines without Sphinx, and the recording of another backend's outputs, are the lab's:
:mod:`jaxbook_lab`.)"""
