# bash completion for secretfield, secretfield-askpass and pinentry-secretfield
# (installed as /usr/share/bash-completion/completions/secretfield, with the
# other two names linked to it: bash-completion loads a file by command name).

_secretfield_prompt_options='--prompt --timeout --password-from --no-prompt --stdin
  --no-reveal --mask --no-echo --min-length --help --version'
_secretfield_cache_options='--keyname --accept-cached --multiple --cache-timeout'

# Completes the value of --password-from: a scheme, then a file for file:.
_secretfield_password_from() {
  case $cur in
    file:*)
      local path=${cur#file:}
      local IFS=$'\n'
      COMPREPLY=($(compgen -f -- "$path"))
      COMPREPLY=("${COMPREPLY[@]/#/file:}")
      compopt -o filenames 2>/dev/null
      ;;
    env:*)
      COMPREPLY=($(compgen -P env: -v -- "${cur#env:}"))
      ;;
    *)
      COMPREPLY=($(compgen -W 'env: file: fd: stdin cmd: credential: keyring:' -- "$cur"))
      [[ ${COMPREPLY[*]} == *: ]] && compopt -o nospace 2>/dev/null
      ;;
  esac
}

_secretfield() {
  local cur prev words cword split
  _init_completion -s || return

  local command='' i
  for ((i = 1; i < cword; i++)); do
    case ${words[i]} in
      -*) ;;
      *) command=${words[i]}; break ;;
    esac
  done

  if [[ -z $command ]]; then
    COMPREPLY=($(compgen -W 'prompt hash verify strength credential forget doctor agent help --help
      --version' -- "$cur"))
    return
  fi

  case $prev in
    --password-from)
      _secretfield_password_from
      return
      ;;
    --strength)
      COMPREPLY=($(compgen -W 'interactive moderate sensitive' -- "$cur"))
      return
      ;;
    --hash-file)
      _filedir
      return
      ;;
    --prompt | --timeout | --mask | --min-length | --keyname | --cache-timeout | \
      --input-timeout | --git | --context)
      return
      ;;
    --user)
      # A name for strength, hash and prompt; a flag of agent's.
      [[ $command == strength || $command == hash || $command == prompt ]] && return
      ;;
  esac
  if [[ $split == true && $prev == --console ]]; then
    COMPREPLY=($(compgen -W '/dev/console $(compgen -G "/dev/tty[0-9]*")' -- "$cur"))
    return
  fi
  $split && return

  local options
  case $command in
    prompt)
      options="--confirm --allow-weak --user --context $_secretfield_prompt_options
        $_secretfield_cache_options"
      ;;
    hash) options="--strength --allow-weak --user --context $_secretfield_prompt_options" ;;
    verify) options="--hash-file $_secretfield_prompt_options" ;;
    strength) options='--password-from --stdin --user --context --min-length --json --help
      --version' ;;
    agent) options='--query --watch --list --console --console= --user --help --version' ;;
    credential)
      options='--timeout --input-timeout --help --version'
      [[ $cur == -* ]] || options='get store erase'
      ;;
    forget) options='--git --help --version' ;;
    doctor) options='--help --version' ;;
    help)
      COMPREPLY=($(compgen -W 'prompt hash verify strength credential forget doctor agent' -- "$cur"))
      return
      ;;
    *) return ;;
  esac
  if [[ $cur == -* || $command == doctor || $command == agent || $command == credential ]]; then
    COMPREPLY=($(compgen -W "$options" -- "$cur"))
    [[ ${COMPREPLY-} == *= ]] && compopt -o nospace 2>/dev/null
  fi
}

_secretfield_askpass() {
  local cur prev words cword
  _init_completion || return
  ((cword == 1)) && [[ $cur == -* ]] &&
    COMPREPLY=($(compgen -W '--help --version' -- "$cur"))
}

_pinentry_secretfield() {
  local cur prev words cword split
  _init_completion -s || return
  case $prev in
    -T | --ttyname)
      COMPREPLY=($(compgen -W '/dev/tty $(compgen -G "/dev/pts/[0-9]*") $(compgen -G "/dev/tty[0-9]*")' -- "$cur"))
      return
      ;;
    -C | --lc-ctype | -M | --lc-messages)
      COMPREPLY=($(compgen -W '$(locale -a 2>/dev/null)' -- "$cur"))
      return
      ;;
    -N | --ttytype | -o | --timeout | -D | --display | -W | --parent-wid | -c | --colors)
      return
      ;;
  esac
  $split && return
  COMPREPLY=($(compgen -W '--ttyname --ttytype --lc-ctype --lc-messages --timeout --display
    --parent-wid --colors --debug --no-global-grab --help --version' -- "$cur"))
}

complete -F _secretfield secretfield
complete -F _secretfield_askpass secretfield-askpass
complete -F _pinentry_secretfield pinentry-secretfield

# ex: filetype=sh
