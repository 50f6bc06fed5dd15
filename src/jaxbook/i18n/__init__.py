"""The translators' workflow: catalog merge and statistics, the checks behind
``make check-po``, and the Chinese copy lint."""
