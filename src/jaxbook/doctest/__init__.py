"""Running the pages' code: the one engine and ``make doctest`` on it, the result cache,
the runtime that every page's doctests import, the bundle for machines without Sphinx, and
the tools that write real outputs onto the pages."""
