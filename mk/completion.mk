# bash completion, installed where bash-completion looks for it, and its test.
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
