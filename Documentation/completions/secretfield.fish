# fish completion for secretfield
# (installed as /usr/share/fish/vendor_completions.d/secretfield.fish).

set -l commands prompt hash verify strength credential forget doctor agent help
complete -c secretfield -f
complete -c secretfield -n "not __fish_seen_subcommand_from $commands" -a prompt -d 'Ask for a password on the terminal; print it to standard output'
complete -c secretfield -n "not __fish_seen_subcommand_from $commands" -a hash -d 'Ask for a new password twice; print its Argon2id hash'
complete -c secretfield -n "not __fish_seen_subcommand_from $commands" -a verify -d 'Ask for a password; check it against a hash'
complete -c secretfield -n "not __fish_seen_subcommand_from $commands" -a strength -d 'Judge a password from a source: accepted or refused, and why'
complete -c secretfield -n "not __fish_seen_subcommand_from $commands" -a credential -d 'The credential helper of git, caching in the kernel keyring'
complete -c secretfield -n "not __fish_seen_subcommand_from $commands" -a forget -d 'Remove passphrases or git credentials cached in the kernel keyring'
complete -c secretfield -n "not __fish_seen_subcommand_from $commands" -a doctor -d 'Measure what protection a password gets here'
complete -c secretfield -n "not __fish_seen_subcommand_from $commands" -a agent -d 'Answer systemd password requests'
complete -c secretfield -n "not __fish_seen_subcommand_from $commands" -a help -d 'Show the help of a command'
complete -c secretfield -s h -l help -d 'Show the help'
complete -c secretfield -l version -d 'Show the version'

complete -c secretfield -n '__fish_seen_subcommand_from help' -a 'prompt hash verify strength credential forget doctor agent'

# The prompt options: prompt, hash and verify.
set -l asking '__fish_seen_subcommand_from prompt hash verify'
complete -c secretfield -n $asking -l prompt -x -d 'The text before the field'
complete -c secretfield -n $asking -l timeout -x -d 'Give up after S seconds (exit status 124)'
complete -c secretfield -n $asking -l password-from -x -a 'env: file: fd: stdin cmd: credential: keyring:' -d 'Take the password from SPEC'
complete -c secretfield -n $asking -l no-prompt -d 'Fail instead of asking when no source is set'
complete -c secretfield -n $asking -l stdin -d 'One line of standard input'
complete -c secretfield -n $asking -l no-reveal -d 'Tab does not show the password'
complete -c secretfield -n $asking -l mask -x -d 'Show each character as C'
complete -c secretfield -n $asking -l no-echo -d 'Show nothing while typing'
complete -c secretfield -n $asking -l min-length -x -d 'Refuse fewer than N characters'

complete -c secretfield -n '__fish_seen_subcommand_from prompt' -l confirm -d 'Ask twice'
complete -c secretfield -n '__fish_seen_subcommand_from prompt' -l keyname -x -d 'Cache the answer in the kernel keyring under NAME'
complete -c secretfield -n '__fish_seen_subcommand_from prompt' -l accept-cached -d 'Write the cached passphrase without asking'
complete -c secretfield -n '__fish_seen_subcommand_from prompt' -l multiple -d 'Write every cached passphrase'
complete -c secretfield -n '__fish_seen_subcommand_from prompt' -l cache-timeout -x -d 'Forget after S seconds'

# The new password options: hash and prompt --confirm.
set -l newpassword '__fish_seen_subcommand_from prompt hash'
complete -c secretfield -n $newpassword -l allow-weak -d 'Take a password the strength rules refuse, with a warning'
complete -c secretfield -n $newpassword -l user -x -a '(__fish_complete_users)' -d "The user's name, refused inside the new password"
complete -c secretfield -n $newpassword -l context -x -d 'A word of the context, refused inside the new password'

complete -c secretfield -n '__fish_seen_subcommand_from hash' -l strength -x -a 'interactive moderate sensitive' -d 'The cost of the hash'
complete -c secretfield -n '__fish_seen_subcommand_from verify' -l hash-file -r -F -d 'Read the hash from FILE'

set -l judging '__fish_seen_subcommand_from strength'
complete -c secretfield -n $judging -l password-from -x -a 'env: file: fd: stdin cmd: credential: keyring:' -d 'Take the password from SPEC'
complete -c secretfield -n $judging -l stdin -d 'One line of standard input'
complete -c secretfield -n $judging -l user -x -a '(__fish_complete_users)' -d "The user's name, refused inside the password"
complete -c secretfield -n $judging -l context -x -d 'A word of the context, refused inside the password'
complete -c secretfield -n $judging -l min-length -x -d 'The fewest characters accepted (15 by default)'
complete -c secretfield -n $judging -l json -d 'Print one line of JSON'

complete -c secretfield -n '__fish_seen_subcommand_from agent' -l query -d 'Ask what is waiting now, then exit'
complete -c secretfield -n '__fish_seen_subcommand_from agent' -l watch -d 'Keep asking as requests come'
complete -c secretfield -n '__fish_seen_subcommand_from agent' -l list -d 'Print what is waiting'
complete -c secretfield -n '__fish_seen_subcommand_from agent' -l console -d 'Ask on /dev/console, or --console=DEVICE'
complete -c secretfield -n '__fish_seen_subcommand_from agent' -l user -d "The user's requests"

complete -c secretfield -n '__fish_seen_subcommand_from credential; and not __fish_seen_subcommand_from get store erase' -a 'get store erase' -d 'What git asks'
complete -c secretfield -n '__fish_seen_subcommand_from credential' -l timeout -x -d 'Forget a credential after S seconds (default 900)'
complete -c secretfield -n '__fish_seen_subcommand_from credential' -l input-timeout -x -d 'Give up when the request has not ended after S seconds'
complete -c secretfield -n '__fish_seen_subcommand_from forget' -l git -x -d 'Remove the git credentials cached for URL'
