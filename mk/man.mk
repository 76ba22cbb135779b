# Manual pages: the overview, the format, and checks that they stay true to the program.
dist_man_MANS += man/folio-trace.1 man/folio-trace.5 man/folio-trace-info.1 \
	man/folio-trace-dump.1
TESTS += tests/man-pages.sh
EXTRA_DIST += tests/man-pages.sh

# bash completion, installed where bash-completion looks for it.
bashcompletiondir = $(datadir)/bash-completion/completions
dist_bashcompletion_DATA = completion/folio-trace.bash
TESTS += tests/completion.sh
EXTRA_DIST += tests/completion.sh

install-data-hook: install-completion-name
install-completion-name:
	cd $(DESTDIR)$(bashcompletiondir) && mv -f folio-trace.bash folio-trace
uninstall-hook:
	rm -f $(DESTDIR)$(bashcompletiondir)/folio-trace
.PHONY: install-completion-name
