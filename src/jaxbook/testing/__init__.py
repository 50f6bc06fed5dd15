"""What the book's tests and its lab's share, as ``sphinx.testing`` serves Sphinx's and its
extensions': a pytest plugin of fixtures (:mod:`jaxbook.testing.fixtures`, which each suite's
``conftest.py`` names in ``pytest_plugins``), and the headless Chromium of the browser tests
and the lab's bench and Lighthouse (:mod:`jaxbook.testing.browser`).

Nothing of the book imports this package: it is the tests', in the checkout the book is
installed from (editable, as ``make venv`` installs it), and it needs the test group's
packages (pytest, Selenium), which the book's runtime does not.
"""
