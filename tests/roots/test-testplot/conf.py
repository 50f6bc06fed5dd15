extensions = ["sphinx.ext.doctest", "jaxbook.testplot"]
plot_html_show_source_link = False
plot_html_show_formats = False
