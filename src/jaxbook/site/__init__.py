"""The built site: the builds of each language, the landing page, the editions, the live
preview and the notebooks' branch. (The headless browser that measures it, and Lighthouse,
are the lab's: :mod:`jaxbook_lab`.)"""
