"""``make bench``: what authors, translators and readers wait for, measured.

:mod:`jaxbook_lab.bench.suite` runs the measurements and prints the table;
:mod:`jaxbook_lab.bench.floor` is the plain run of every code cell that the
doctest figures are compared with.
"""
