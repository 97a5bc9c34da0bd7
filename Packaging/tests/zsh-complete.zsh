# zsh zsh-complete.zsh WORDS OUTFILE
#
# Types WORDS and Tab into an interactive zsh (on a pty, zsh/zpty) that
# loads completions from its default fpath, as a user's zsh does after
# compinit (Debian's includes /usr/share/zsh/vendor-completions), and writes
# the completed line to OUTFILE.
zmodload zsh/zpty || exit 2
zpty shell 'zsh -f -i'
zpty -w shell "autoload -U compinit; compinit -u -D; PROMPT='>> '; print MARK-READY"
zpty -r shell out '*MARK-READY*' || exit 2
zpty -r shell out '*>> ' || exit 2
zpty -w -n shell "$1"$'\t'
sleep 1
# The line as completed, written to the file by the shell itself: ^A, a print
# command before it, ^E, the redirection after it, Enter. The marker is
# typed as MARK-DO''NE, so only its output reads MARK-DONE: the echo of a
# line longer than the pty's 80 columns is redrawn in pieces, and waiting
# for the echo too waited forever.
zpty -w -n shell $'\C-a'"print -r -- '"$'\C-e'"' > ${(q)2}; print MARK-DO''NE"$'\n'
zpty -r shell out '*MARK-DONE*' || exit 3
zpty -d shell
