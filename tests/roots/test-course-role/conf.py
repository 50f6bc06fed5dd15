# The course role alone, linking the course in the page's language.
extensions = ["jaxbook.sphinxext.facts"]
language = "zh_CN"
jaxbook_course_url = {"zh_CN": "https://example.org/zh/course", "en": "https://example.org/course"}
