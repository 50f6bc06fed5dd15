extensions = ["sphinx.ext.doctest", "jaxbook.sphinxext.testplot"]
plot_html_show_source_link = False
plot_html_show_formats = False
