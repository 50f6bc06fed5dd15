# A book that loads the notebooks alone, with a file name stem of its own: no PDF or EPUB.
extensions = ["sphinx.ext.doctest", "jaxbook.sphinxext.notebooks"]
language = "en"
project = "A Small Book"
jaxbook_basename = "small-book"
