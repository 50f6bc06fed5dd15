"""The built site: the language landing page and the headless browser that
tests and measures it."""
