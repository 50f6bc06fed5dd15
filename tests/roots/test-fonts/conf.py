extensions = ["jaxbook.sphinxext.fonts", "sphinxext.opengraph"]
language = "zh_CN"
ogp_site_url = "https://example.org/"
ogp_social_cards = {"font": ["Noto Sans CJK SC", "Symbola"]}
