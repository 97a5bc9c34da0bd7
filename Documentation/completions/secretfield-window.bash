# bash completion for secretfield-window
# (installed as /usr/share/bash-completion/completions/secretfield-window).

_secretfield_window() {
  local cur prev words cword split
  _init_completion -s || return

  if ((cword == 1)); then
    COMPREPLY=($(compgen -W 'askpass pinentry credential --help --version' -- "$cur"))
    return
  fi
  case ${words[1]} in
    askpass)
      [[ $prev == --timeout ]] && return
      [[ $cur == -* ]] && COMPREPLY=($(compgen -W '--timeout --help' -- "$cur"))
      ;;
    pinentry)
      case $prev in
        -T | --ttyname)
          COMPREPLY=($(compgen -W '/dev/tty $(compgen -G "/dev/pts/[0-9]*") $(compgen -G "/dev/tty[0-9]*")' -- "$cur"))
          return
          ;;
        -C | --lc-ctype | -M | --lc-messages)
          COMPREPLY=($(compgen -W '$(locale -a 2>/dev/null)' -- "$cur"))
          return
          ;;
        -N | --ttytype | -o | --timeout | -D | --display)
          return
          ;;
      esac
      $split && return
      COMPREPLY=($(compgen -W '--display --ttyname --ttytype --lc-ctype --lc-messages --timeout
        --help --version' -- "$cur"))
      ;;
    credential)
      [[ $prev == --timeout || $prev == --input-timeout ]] && return
      if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W '--timeout --input-timeout --help' -- "$cur"))
      else
        COMPREPLY=($(compgen -W 'get store erase' -- "$cur"))
      fi
      ;;
  esac
}

complete -F _secretfield_window secretfield-window

# ex: filetype=sh
