"""Running the pages' code: the runner behind ``make doctest``, the runtime
that every page's doctests import, the bundle for machines without Sphinx,
and the tools that write real outputs onto the pages."""
