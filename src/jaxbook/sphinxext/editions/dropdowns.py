"""Off the website a dropdown cannot fold (``LabelDropdowns``, for the PDF and the EPUB): it
becomes a labelled block, and a quiz's answers (its "answer and explanation" dropdowns) are
collected after its last question, each linked to its question and from it.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform

from jaxbook.sphinxext._locale import _
from jaxbook.sphinxext._nodes import section_title

QUESTION = "jb-question"  # a quiz question's section (docs/ch01/quiz.rst)


class LabelDropdowns(SphinxPostTransform):
    """Off the website a dropdown cannot fold: show its title as a label above its content.

    A quiz's answers (a dropdown in a question's section, ``jb-question``) go after its last
    question instead, in a section of their own ("Answers and explanations"), each titled
    with its question's number, which links to the question; where each answer was, its
    question links to it. On paper an answer right under its question is read before the
    question is answered, and the answers start a page of their own.

    Runs before sphinx-design turns dropdowns into HTML ``<details>`` (whose
    icons an EPUB may not hold there).
    """

    default_priority = 150
    # The editions; not the site, nor the gettext builder, which must see the dropdown
    # as the page has it, title included.
    builders = ("latex", "epub")

    def run(self, **kwargs: Any) -> None:
        # A quiz's answers (by the section that holds its questions), for a section of
        # their own after its last question.
        answers: dict[int, list[nodes.Element]] = {}
        for node in list(self.document.findall(nodes.container)):
            if node.get("design_component") != "dropdown":
                continue
            title = next(iter(node.findall(nodes.rubric)), None)
            # Translators: The title of a quiz question's answer in the books, where the page's
            # dropdown has no title of its own.
            label = title.astext() if title is not None else _("Answer")
            box = nodes.admonition(classes=["jb-answer", "hint"])
            box += nodes.title("", label)
            # Moved, not copied: a copy would lose what Sphinx keeps on the node (its uid).
            for child in list(node.children):
                node.remove(child)
                if child is not title:
                    box += child
            question = node.parent
            if isinstance(question, nodes.section) and QUESTION in question["classes"]:
                answers.setdefault(id(question.parent), []).extend(
                    self.answer_apart(question, node, box, label)
                )
            else:
                node.replace_self(box)
        for quiz in list(self.document.findall(nodes.section)):
            if id(quiz) not in answers:
                continue
            questions = [c for c in quiz.children if isinstance(c, nodes.section)]
            last = [c for c in questions if QUESTION in c["classes"]][-1]
            section = nodes.section(ids=[nodes.make_id(f"jb-quiz-answers-{quiz['ids'][0]}")])
            # Translators: In the books, the heading of the section after a quiz's last question
            # that holds the answers to its questions.
            section += nodes.title("", _("Answers and explanations"))
            section.extend(answers[id(quiz)])
            quiz.insert(quiz.index(last) + 1, section)
            # On paper the answers start a page: on the last question's page, its answer
            # would be read before the question is answered.
            quiz.insert(quiz.index(section), nodes.raw("", r"\clearpage", format="latex"))

    def answer_apart(
        self, question: nodes.section, dropdown: nodes.Element, box: nodes.Element, label: str
    ) -> list[nodes.Element]:
        """The answer ``box`` of ``question``, titled with the question's number linked to the
        question, with a target in it; where the dropdown was, a link to that target."""
        anchor = nodes.make_id(f"jb-answer-{question['ids'][0]}")
        number = section_title(question).astext()
        box[0] = nodes.title("", "", nodes.reference("", number, refid=question["ids"][0]))
        # Translators: In the books, under a quiz's question, where the answer is: "%s" is the
        # link to it, named as the section that holds the answers ("Answers and explanations").
        before, _sep, after = str(_("See “%s” at the end of the quiz.")).partition("%s")
        link = nodes.paragraph(classes=["jb-answer-link"])
        link += [
            nodes.Text(before),
            nodes.reference("", str(_("Answers and explanations")), refid=anchor),
            nodes.Text(after),
        ]
        dropdown.replace_self(link)
        # In the box, after its title: before it, a page break could part them.
        box.insert(1, nodes.target("", "", ids=[anchor]))
        return [box]
