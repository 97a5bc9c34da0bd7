# fish completion for secretfield-window
# (installed as /usr/share/fish/vendor_completions.d/secretfield-window.fish).

set -l commands askpass pinentry credential
complete -c secretfield-window -f
complete -c secretfield-window -n "not __fish_seen_subcommand_from $commands" -a askpass -d 'Ask for a password in a window for ssh, sudo or git'
complete -c secretfield-window -n "not __fish_seen_subcommand_from $commands" -a pinentry -d 'A pinentry for gpg-agent that asks in a window'
complete -c secretfield-window -n "not __fish_seen_subcommand_from $commands" -a credential -d "Git's credential helper, asking in a window"
complete -c secretfield-window -n "not __fish_seen_subcommand_from $commands" -s h -l help -d 'Show the help'
complete -c secretfield-window -n "not __fish_seen_subcommand_from $commands" -l version -d 'Show the version'
complete -c secretfield-window -n '__fish_seen_subcommand_from askpass' -l timeout -x -d 'Give up after this many seconds'
complete -c secretfield-window -n '__fish_seen_subcommand_from askpass' -l help -d 'Show the help'
complete -c secretfield-window -n '__fish_seen_subcommand_from pinentry' -s D -l display -x -d 'The X display to ask on'
complete -c secretfield-window -n '__fish_seen_subcommand_from pinentry' -s T -l ttyname -r -F -d 'The terminal to ask on'
complete -c secretfield-window -n '__fish_seen_subcommand_from pinentry' -s N -l ttytype -x -d "The terminal's type"
complete -c secretfield-window -n '__fish_seen_subcommand_from pinentry' -s C -l lc-ctype -x -a '(locale -a 2>/dev/null)' -d "The terminal's character set"
complete -c secretfield-window -n '__fish_seen_subcommand_from pinentry' -s M -l lc-messages -x -a '(locale -a 2>/dev/null)' -d 'The language of messages'
complete -c secretfield-window -n '__fish_seen_subcommand_from pinentry' -s o -l timeout -x -d 'Give up after this long'
complete -c secretfield-window -n '__fish_seen_subcommand_from pinentry' -s h -l help -d 'Show the help'
complete -c secretfield-window -n '__fish_seen_subcommand_from pinentry' -l version -d 'Show the version'
complete -c secretfield-window -n '__fish_seen_subcommand_from credential' -a 'get store erase' -d 'What git asks'
complete -c secretfield-window -n '__fish_seen_subcommand_from credential' -l timeout -x -d 'Forget a stored credential after this many seconds'
complete -c secretfield-window -n '__fish_seen_subcommand_from credential' -l input-timeout -x -d 'Give up when the request has not ended after this long'
complete -c secretfield-window -n '__fish_seen_subcommand_from credential' -l help -d 'Show the help'
