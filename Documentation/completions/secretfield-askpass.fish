# fish completion for secretfield-askpass
# (installed as /usr/share/fish/vendor_completions.d/secretfield-askpass.fish).
complete -c secretfield-askpass -f
complete -c secretfield-askpass -s h -l help -d 'Show the help'
complete -c secretfield-askpass -l version -d 'Show the version'
