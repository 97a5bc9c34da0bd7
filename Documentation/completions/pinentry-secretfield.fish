# fish completion for pinentry-secretfield
# (installed as /usr/share/fish/vendor_completions.d/pinentry-secretfield.fish).
complete -c pinentry-secretfield -f
complete -c pinentry-secretfield -s T -l ttyname -r -F -d 'The terminal to ask on'
complete -c pinentry-secretfield -s N -l ttytype -x -d "The terminal's type"
complete -c pinentry-secretfield -s C -l lc-ctype -x -a '(locale -a 2>/dev/null)' -d "The terminal's character set"
complete -c pinentry-secretfield -s M -l lc-messages -x -a '(locale -a 2>/dev/null)' -d 'The language of messages'
complete -c pinentry-secretfield -s o -l timeout -x -d 'Give up after this long'
complete -c pinentry-secretfield -s D -l display -x -d 'Ignored'
complete -c pinentry-secretfield -s W -l parent-wid -x -d 'Ignored'
complete -c pinentry-secretfield -s c -l colors -x -d 'Ignored'
complete -c pinentry-secretfield -s d -l debug -d 'Ignored'
complete -c pinentry-secretfield -s g -l no-global-grab -d 'Ignored'
complete -c pinentry-secretfield -s h -l help -d 'Show the help'
complete -c pinentry-secretfield -l version -d 'Show the version'
