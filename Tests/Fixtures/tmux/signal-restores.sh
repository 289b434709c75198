#!/bin/sh
# Runs the board in a pane of its own tmux server, started from a shell that notes the tty's
# settings (stty -g) before and after it; once the board shows, sends it SIGNAL (kill -s), and
# writes the settings to FOLDER/before and FOLDER/after, the board's exit status to
# FOLDER/status and the pane's text after the board ended to FOLDER/pane. Prints "done", or
# "none" when the board had not ended 10 s after the signal.
# Usage: signal-restores.sh SOCKET BINARY WALLBOARD_HOME SIGNAL FOLDER
S=$1; D=$5
# The board runs in the background of a shell without job control: in the pane's foreground
# process group, its standard input the pane's terminal.
tmux -L "$S" -f /dev/null new-session -d -x 100 -y 30 \
  "ulimit -c 0; echo shell-before-board; stty -g >'$D/before'; SWIFT_BACKTRACE=enable=no WALLBOARD_HOME='$3' '$2' run --display term --source sim --tz UTC --no-journal </dev/tty 2>'$D/err' & echo \$! >'$D/pid'; wait \$!; echo \$? >'$D/status'; stty -g >'$D/after'; sleep 30" \
  </dev/null >/dev/null 2>&1
i=0; while [ $i -lt 200 ]; do tmux -L "$S" capture-pane -p 2>/dev/null | grep -q 'Done' && break; sleep 0.1; i=$((i+1)); done
sleep 0.5
kill -s "$4" "$(cat "$D/pid")"
i=0; while [ $i -lt 100 ] && [ ! -s "$D/after" ]; do sleep 0.1; i=$((i+1)); done
sleep 0.2
tmux -L "$S" capture-pane -p >"$D/pane" 2>/dev/null </dev/null
if [ -s "$D/after" ]; then r=done; else r=none; kill -s KILL "$(cat "$D/pid")" 2>/dev/null; fi
tmux -L "$S" kill-server </dev/null >/dev/null 2>&1
echo "$r"
