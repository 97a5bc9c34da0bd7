#!/usr/bin/env bash
# The checks of the installed package, run by Scripts/test-install inside a
# private mount namespace where HIDDEN (the Swift toolchain) is an empty tmpfs:
#
#   installed-checks.bash VERSION HIDDEN WORK
#
# Each check says what it shows and fails the run (exit 1) when it does not
# hold. The real peers (gpg-agent, ssh-agent, and Xvfb for the window) are
# started here, so they and the tools they start see the toolchain hidden too;
# they are stopped on every way out. The pinentry alternative is set to ours here; Scripts/test-install
# puts it back.
set -euo pipefail
version="$1" hidden="$2" work="$3"
here="$(cd "$(dirname "$0")" && pwd)"
session="$here/pty-session.py"
# The window first: the messages below show the last one's libraries and
# hardening, and the GTK program's list is long.
programs=(/usr/bin/secretfield-window /usr/bin/secretfield /usr/bin/secretfield-askpass
  /usr/bin/pinentry-secretfield)

check() { printf 'test-install:   ok  %s\n' "$*"; }
fail() {
  printf 'test-install: FAILED: %s\n' "$*" >&2
  exit 1
}

gnupg_home=""
ssh_agent=""
xvfb=""
askpass=""
git_server=""
git_key=""
stop_peers() {
  local process
  if [[ -n "$git_key" ]]; then
    keyctl search @u user "$git_key" 2> /dev/null | xargs -r keyctl invalidate 2> /dev/null || true
  fi
  for process in "$askpass" "$xvfb" "$git_server"; do
    if [[ -n "$process" ]]; then
      kill "$process" 2> /dev/null || true
      wait "$process" 2> /dev/null || true
    fi
  done
  if [[ -n "$gnupg_home" ]]; then
    env -i GNUPGHOME="$gnupg_home" PATH=/usr/bin:/bin gpgconf --kill gpg-agent 2> /dev/null || true
    rm -rf "$gnupg_home"
  fi
  if [[ -n "$ssh_agent" ]]; then
    kill "$ssh_agent" 2> /dev/null || true
    wait "$ssh_agent" 2> /dev/null || true
  fi
}
trap stop_peers EXIT

# --- the toolchain is out of reach --------------------------------------------

[[ -d "$hidden" && -z "$(ls -A "$hidden")" ]] || fail "$hidden is not hidden (not an empty directory)"
# Control: a program linked with the toolchain's shared Swift runtime, as
# swift build links by default (Scripts/test-install builds one before hiding
# the toolchain), cannot start here.
control="$work/control/dynamic-swift"
[[ -x "$control" ]] || fail "no control program at $control"
if "$control" > "$work/control.out" 2>&1; then
  fail "$control, linked with the toolchain's runtime, ran with $hidden hidden: the hiding proves nothing"
fi
grep -q 'libswift[A-Za-z_]*\.so' "$work/control.out" ||
  fail "$control failed for another reason than the hidden runtime: $(cat "$work/control.out")"
check "control: a program linked with the shared Swift runtime cannot start with $hidden hidden"

# --- the programs run -----------------------------------------------------------

for program in "${programs[@]}"; do
  printed="$("$program" --version)" || fail "$program --version failed"
  [[ "$printed" == "$(basename "$program") $version" ]] ||
    fail "$program --version printed '$printed', not '$(basename "$program") $version'"
done
check "--version of each program: $version"
/usr/bin/secretfield-window --help > "$work/window-help.out" 2>&1 ||
  fail "secretfield-window --help failed: $(cat "$work/window-help.out")"
grep -q '^Usage: secretfield-window askpass' "$work/window-help.out" ||
  fail "secretfield-window --help printed no usage: $(cat "$work/window-help.out")"
check "secretfield-window --help"

set +e
/usr/bin/secretfield doctor > "$work/doctor.out" 2>&1
status=$?
set -e
# 0: the strongest protection holds; 1: a line falls short (a machine without
# secret memory). Anything else (127, a signal) is a tool that did not run.
[[ $status == 0 || $status == 1 ]] || fail "secretfield doctor exited $status: $(cat "$work/doctor.out")"
grep -q 'What protection a password gets here' "$work/doctor.out" ||
  fail "secretfield doctor printed no survey: $(cat "$work/doctor.out")"
grep -q 'secret memory' "$work/doctor.out" || fail "secretfield doctor has no secret memory line"
check "secretfield doctor runs (status $status)"

# --- nothing from the toolchain ------------------------------------------------

for program in "${programs[@]}"; do
  ldd "$program" > "$work/ldd.out" 2>&1 || fail "ldd $program failed: $(cat "$work/ldd.out")"
  if grep -E 'not found|swift' "$work/ldd.out"; then
    fail "$program needs a library that is not on the system, or one of Swift's"
  fi
done
check "ldd: every library found, none of Swift's ($(awk '{print $1}' "$work/ldd.out" | grep -v vdso | paste -sd ' '))"

# --- hardening -----------------------------------------------------------------

# What hardening-check says yes to on Debian's pinentry-curses (PIE, stack
# protector, fortify, RELRO, immediate binding), ours must say yes to too.
# Fortify's yes comes from the C shim's checked read (__read_chk, the signal
# relay's reads); the Swift runtime linked in calls read, memcpy and the like
# unchecked (the toolchain builds it without _FORTIFY_SOURCE), and Swift code
# is bounds-checked by the language instead.
if [[ -x /usr/bin/pinentry-curses ]]; then
  mapfile -t required < <(hardening-check /usr/bin/pinentry-curses | sed -n 's/^ \(.*\): yes.*/\1/p')
else
  required=("Position Independent Executable" "Stack protected" "Fortify Source functions"
    "Read-only relocations" "Immediate binding")
fi
((${#required[@]} >= 4)) || fail "hardening-check said yes to too little on pinentry-curses: ${required[*]}"
for program in "${programs[@]}"; do
  hardening-check "$program" > "$work/hardening.out" || true
  for property in "${required[@]}"; do
    grep -q "^ $property: yes" "$work/hardening.out" ||
      fail "$program: hardening-check: $(grep "^ $property" "$work/hardening.out")"
  done
done
check "hardening-check: ${required[*]}: yes"
sed -n 's/^ \(Stack clash protection\|Control flow integrity\): /    (\1: /p' "$work/hardening.out" |
  sed 's/$/)/'

# --- the manual ------------------------------------------------------------------

for page in secretfield secretfield-askpass pinentry-secretfield secretfield-window \
  git-credential-secretfield; do
  path="$(man -w "$page")" || fail "man -w $page: not found"
  expected="/usr/share/man/man1/$page.1.gz"
  # git-credential-secretfield(1) is a link to secretfield(1), which man names.
  [[ "$page" == git-credential-secretfield && -L "$expected" ]] &&
    expected=/usr/share/man/man1/secretfield.1.gz
  [[ "$path" == "$expected" ]] || fail "man -w $page: $path"
  LC_ALL=C.UTF-8 man --warnings -E UTF-8 -l -Tutf8 -Z "$path" > /dev/null 2> "$work/man.err" ||
    fail "man could not format $path"
  [[ ! -s "$work/man.err" ]] || fail "man warns about $page(1): $(cat "$work/man.err")"
done
LC_ALL=C.UTF-8 MANWIDTH=80 man -P cat secretfield > "$work/man.txt" 2> /dev/null ||
  fail "man secretfield failed"
for heading in NAME SYNOPSIS COMMANDS OPTIONS "EXIT STATUS" ENVIRONMENT FILES EXAMPLES; do
  grep -q "^$heading" "$work/man.txt" || fail "man secretfield has no $heading section"
done
grep -q 'secretfield - ask for a password on the terminal' "$work/man.txt" ||
  fail "man secretfield does not render its NAME line"
LC_ALL=C.UTF-8 MANWIDTH=80 man -P cat secretfield-window > "$work/man-window.txt" 2> /dev/null ||
  fail "man secretfield-window failed"
grep -q 'secretfield-window - askpass and pinentry that ask in a window' "$work/man-window.txt" ||
  fail "man secretfield-window does not render its NAME line"
check "man secretfield renders ($(wc -l < "$work/man.txt") lines), secretfield-window" \
  "($(wc -l < "$work/man-window.txt")), and the other pages without warnings"

# --- the pinentry alternative and gpg-agent ----------------------------------------

update-alternatives --display pinentry > "$work/alternatives.out"
grep -qx '/usr/bin/pinentry-secretfield - priority 40' "$work/alternatives.out" ||
  fail "update-alternatives --display pinentry does not list ours at 40: $(cat "$work/alternatives.out")"
grep -qx '  slave pinentry.1.gz: /usr/share/man/man1/pinentry-secretfield.1.gz' \
  "$work/alternatives.out" || fail "our pinentry's man page is not its slave link"
check "update-alternatives --display pinentry lists pinentry-secretfield, priority 40, man page slave"

update-alternatives --quiet --set pinentry /usr/bin/pinentry-secretfield
[[ "$(readlink -f /usr/bin/pinentry)" == /usr/bin/secretfield ]] ||
  fail "/usr/bin/pinentry leads to $(readlink -f /usr/bin/pinentry), not our binary"
[[ "$(/usr/bin/pinentry --version)" == "pinentry-secretfield $version" ]] ||
  fail "/usr/bin/pinentry, started by that name, is not the pinentry: $(/usr/bin/pinentry --version)"
[[ "$(readlink -f /usr/share/man/man1/pinentry.1.gz)" == \
  /usr/share/man/man1/pinentry-secretfield.1.gz ]] || fail "man pinentry is not ours"
check "with the alternative set, /usr/bin/pinentry is pinentry-secretfield, and so is man pinentry"

# A GnuPG home with a short path (the agent's socket path is limited), the
# agent told to use /usr/bin/pinentry, a terminal whose name gpg passes on
# (GPG_TTY), and a passphrase typed there. The masks (•) are ours:
# pinentry-curses shows * in a box.
gnupg_home="$(mktemp -d /tmp/sfig.XXXXXX)"
echo "pinentry-program /usr/bin/pinentry" > "$gnupg_home/gpg-agent.conf"
gnupg=(env -i GNUPGHOME="$gnupg_home" HOME="$gnupg_home" PATH=/usr/bin:/bin LC_ALL=C.UTF-8)
"${gnupg[@]}" gpgconf --launch gpg-agent || fail "gpg-agent did not start"
"$session" --env GNUPGHOME="$gnupg_home" --env HOME="$gnupg_home" --output "$work/gpg.out" \
  "wait:Passphrase:" "type:Corr3ct horse" "wait:Passphrase: •••••••••••••" "type:\r" exit:0 \
  -- /bin/sh -c 'GPG_TTY=$(tty); export GPG_TTY
    exec gpg-connect-agent "GET_PASSPHRASE --data sf-install-test X Passphrase: Installed%20test" /bye' ||
  fail "gpg-agent did not get a passphrase through /usr/bin/pinentry"
[[ "$(cat "$work/gpg.out")" == $'D Corr3ct horse\nOK' ]] ||
  fail "gpg-connect-agent received '$(cat "$work/gpg.out")', not the passphrase typed"
"${gnupg[@]}" gpgconf --kill gpg-agent
rm -rf "$gnupg_home"
gnupg_home=""
check "gpg-agent, with pinentry-program /usr/bin/pinentry, got the passphrase typed on a pty"

# --- the askpass and ssh-add ------------------------------------------------------

key="$work/key"
ssh-keygen -q -t ed25519 -N 'correct horse' -C sf-install-test -f "$key"
fingerprint="$(ssh-keygen -lf "$key.pub" | awk '{print $2}')"
ssh-agent -D -a "$work/agent" > /dev/null 2>&1 &
ssh_agent=$!
for _ in $(seq 300); do
  [[ -S "$work/agent" ]] && break
  sleep 0.05
done
[[ -S "$work/agent" ]] || fail "ssh-agent made no socket"
"$session" --env SSH_AUTH_SOCK="$work/agent" --env SSH_ASKPASS=/usr/bin/secretfield-askpass \
  --env SSH_ASKPASS_REQUIRE=force --env DISPLAY=:0 --env HOME="$work" \
  "wait:Enter passphrase for $key:" "wait:Esc cancel" "type:correct horse" "type:\r" exit:0 \
  -- ssh-add "$key" || fail "ssh-add did not add the key through secretfield-askpass"
SSH_AUTH_SOCK="$work/agent" ssh-add -l > "$work/keys.out" || true
grep -q "$fingerprint" "$work/keys.out" || fail "ssh-agent does not hold the key: $(cat "$work/keys.out")"
check "ssh-add, with SSH_ASKPASS=/usr/bin/secretfield-askpass, added the key"

# --- git and its credential helper ---------------------------------------------------

# git clone over HTTP from git http-backend behind a server that checks the
# password (git-http-server.py), with credential.helper=secretfield, as the
# README says to set it: git finds /usr/bin/git-credential-secretfield on
# PATH. The first clone asks in the helper's form on a pty; the server takes
# the password, git tells the helper to store it, and the second clone gets
# it from the kernel keyring without asking (the step would wait for the form
# and fail). HOME is a directory of the test and GIT_CONFIG_NOSYSTEM is set:
# no git configuration of the machine is read or written.
[[ "$(/usr/bin/git-credential-secretfield --version)" == "git-credential-secretfield $version" ]] ||
  fail "git-credential-secretfield --version: $(/usr/bin/git-credential-secretfield --version)"
git_work="$work/git"
mkdir -p "$git_work/home"
plain_git=(env -i PATH=/usr/bin:/bin HOME="$git_work/home" GIT_CONFIG_NOSYSTEM=1 git)
"${plain_git[@]}" init -q "$git_work/work"
"${plain_git[@]}" -C "$git_work/work" -c user.name=Test -c user.email=test@example.invalid \
  commit -q --allow-empty -m first
"${plain_git[@]}" clone -q --bare "$git_work/work" "$git_work/repositories/a.git"
echo '{"a.git": ["alice", "installed horse"]}' > "$git_work/accounts.json"
"$here/git-http-server.py" "$git_work/repositories" "$git_work/accounts.json" \
  "$git_work/requests.log" > "$git_work/port" 2> "$git_work/server.err" &
git_server=$!
for _ in $(seq 300); do
  [[ -s "$git_work/port" ]] && break
  kill -0 "$git_server" 2> /dev/null || break
  sleep 0.05
done
port="$(head -1 "$git_work/port" 2> /dev/null)"
[[ "$port" =~ ^[0-9]+$ ]] || fail "the git server did not start: $(cat "$git_work/server.err")"
url="http://127.0.0.1:$port/a.git"
git_key="secretfield-git;protocol=http;host=127.0.0.1:$port;username=alice"
git_env=(--env HOME="$git_work/home" --env GIT_CONFIG_NOSYSTEM=1 --env GIT_TERMINAL_PROMPT=0)
"$session" "${git_env[@]}" "wait:git: http://127.0.0.1:$port" "wait:Username:" \
  "type:alice" "type:\r" "type:installed horse" "wait:Password: •••••••••••••••" "type:\r" \
  exit:0 -- git -c credential.helper=secretfield clone -q "$url" "$git_work/clone1" ||
  fail "git clone did not get the credential typed into git-credential-secretfield's form"
keyctl search @u user "$git_key" > /dev/null 2>&1 ||
  fail "git-credential-secretfield did not cache the credential the server took"
"$session" "${git_env[@]}" --timeout 30 exit:0 \
  -- git -c credential.helper=secretfield clone -q "$url" "$git_work/clone2" ||
  fail "the second git clone asked again, or failed"
[[ "$(grep -c '^a.git ok$' "$git_work/requests.log")" -ge 2 ]] ||
  fail "the server did not take the credential twice: $(cat "$git_work/requests.log")"
/usr/bin/secretfield forget --git "http://127.0.0.1:$port" ||
  fail "secretfield forget --git failed"
keyctl search @u user "$git_key" > /dev/null 2>&1 &&
  fail "secretfield forget --git left the credential cached"
git_key=""
check "git clone with credential.helper=secretfield: asked once on a pty, then from the" \
  "keyring; forget --git removed it"

# --- completions -------------------------------------------------------------------

# bash-completion loads /usr/share/bash-completion/completions/NAME on first use.
complete_bash() {
  bash --norc --noprofile -c '
    source /usr/share/bash-completion/bash_completion
    _completion_loader "$1"
    function="$(complete -p "$1" 2> /dev/null | sed -E "s/.* -F ([^ ]+) .*/\1/")"
    [[ -n "$function" ]] || exit 3
    COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
    "$function" "$1" "${COMP_WORDS[-1]}" "${COMP_WORDS[-2]}"
    printf "%s\n" "${COMPREPLY[@]}"' bash "$@"
}
[[ "$(complete_bash secretfield pro)" == prompt ]] ||
  fail "bash: 'secretfield pro' completes to '$(complete_bash secretfield pro)', not 'prompt'"
[[ "$(complete_bash secretfield prompt --accept-)" == --accept-cached ]] ||
  fail "bash: 'secretfield prompt --accept-' does not complete to --accept-cached"
[[ "$(complete_bash pinentry-secretfield --ttyn)" == --ttyname ]] ||
  fail "bash: 'pinentry-secretfield --ttyn' does not complete to --ttyname"
[[ "$(complete_bash secretfield-window ask)" == askpass ]] ||
  fail "bash: 'secretfield-window ask' completes to '$(complete_bash secretfield-window ask)'"
[[ "$(complete_bash secretfield credential st)" == store ]] ||
  fail "bash: 'secretfield credential st' does not complete to store"
check "bash completes 'secretfield pro' to 'secretfield prompt', 'secretfield-window ask' to askpass"
if command -v zsh > /dev/null; then
  timeout 30 zsh "$here/zsh-complete.zsh" 'secretfield pro' "$work/zsh.out" ||
    fail "zsh did not run the completion"
  [[ "$(cat "$work/zsh.out")" == "secretfield prompt" ]] ||
    fail "zsh: 'secretfield pro' completes to '$(cat "$work/zsh.out")'"
  timeout 30 zsh "$here/zsh-complete.zsh" 'secretfield-window ask' "$work/zsh.out" ||
    fail "zsh did not run the completion"
  [[ "$(cat "$work/zsh.out")" == "secretfield-window askpass" ]] ||
    fail "zsh: 'secretfield-window ask' completes to '$(cat "$work/zsh.out")'"
  check "zsh completes 'secretfield pro' to 'secretfield prompt', 'secretfield-window ask' to askpass"
else
  echo "test-install:   (zsh is not installed: its completion is not tried)"
fi
if command -v fish > /dev/null; then
  completed="$(HOME="$work" XDG_CONFIG_HOME="$work" fish -c 'complete -C "secretfield pro"' |
    cut -f1)"
  [[ "$completed" == prompt ]] || fail "fish: 'secretfield pro' completes to '$completed'"
  completed="$(HOME="$work" XDG_CONFIG_HOME="$work" fish -c 'complete -C "secretfield-window ask"' |
    cut -f1)"
  [[ "$completed" == askpass ]] || fail "fish: 'secretfield-window ask' completes to '$completed'"
  check "fish completes 'secretfield pro' to 'secretfield prompt', 'secretfield-window ask' to askpass"
else
  echo "test-install:   (fish is not installed: its completion is not tried)"
fi

# --- the window ---------------------------------------------------------------------

# secretfield-askpass run as ssh runs it from a desktop: a session of its own
# (no controlling terminal), standard input not a terminal, a display named.
# It must find /usr/bin/secretfield-window beside it and become it; the
# password typed into the window (xdotool, XTEST on Xvfb) comes out on its
# standard output. Xvfb picks a free display itself (-displayfd) and writes
# its number when it takes connections. No session bus: GTK must not start
# one (dbus autolaunch) that would outlive the test.
Xvfb -displayfd 3 -screen 0 1024x768x24 -nolisten tcp 3> "$work/xvfb.display" \
  > "$work/xvfb.log" 2>&1 &
xvfb=$!
for _ in $(seq 300); do
  [[ -s "$work/xvfb.display" ]] && break
  kill -0 "$xvfb" 2> /dev/null || break
  sleep 0.05
done
display=":$(head -1 "$work/xvfb.display" 2> /dev/null)"
[[ "$display" =~ ^:[0-9]+$ ]] || fail "Xvfb did not start: $(cat "$work/xvfb.log")"
x11=(env DISPLAY="$display" timeout 30 xdotool)
env -i PATH=/usr/bin:/bin HOME="$work" LC_ALL=C.UTF-8 DISPLAY="$display" GDK_BACKEND=x11 \
  GSK_RENDERER=cairo GTK_A11Y=none NO_AT_BRIDGE=1 DBUS_SESSION_BUS_ADDRESS="unix:path=$work/no-bus" \
  setsid -w /usr/bin/secretfield-askpass "Password:" < /dev/null > "$work/window.out" \
  2> "$work/window.err" &
askpass=$!
window="$("${x11[@]}" search --sync --name '^secretfield-askpass$' | head -1)" || true
[[ -n "$window" ]] ||
  fail "no window named secretfield-askpass on $display within 30 s: $(cat "$work/window.err")"
"${x11[@]}" windowfocus --sync "$window"
"${x11[@]}" type --delay 20 hunter2
"${x11[@]}" key Return
for _ in $(seq 300); do
  kill -0 "$askpass" 2> /dev/null || break
  sleep 0.05
done
kill -0 "$askpass" 2> /dev/null && fail "the window did not end 15 s after Return"
status=0
wait "$askpass" || status=$?
askpass=""
[[ $status == 0 ]] || fail "secretfield-askpass in the window exited $status: $(cat "$work/window.err")"
cmp -s "$work/window.out" <(printf 'hunter2\n') ||
  fail "secretfield-askpass in the window wrote $(od -An -c "$work/window.out" | tr -s ' '), not hunter2"
check "secretfield-askpass with no terminal and DISPLAY=$display: the window, hunter2 typed, status 0"
