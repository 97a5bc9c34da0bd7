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
# command before it, ^E, the redirection after it, Enter.
zpty -w -n shell $'\C-a'"print -r -- '"$'\C-e'"' > ${(q)2}; print MARK-DONE"$'\n'
zpty -r shell out '*MARK-DONE*MARK-DONE*' || exit 3
zpty -d shell
