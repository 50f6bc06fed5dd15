"""Running the pages' code: the one engine, the record of each page's run that a build keeps,
``make doctest``'s verdict on it, the runtime that every page's doctests import, the bundle
for machines without Sphinx, and the tools that write real outputs onto the pages."""
