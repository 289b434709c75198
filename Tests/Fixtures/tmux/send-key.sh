#!/bin/sh
# Runs the board in a pane of its own tmux server, waits for its first frame (half blocks on the
# pane), sends one key and prints the board's exit status ("none" when it had not ended 10 s later).
# Usage: send-key.sh SOCKET BINARY WALLBOARD_HOME KEY FOLDER
S=$1; D=$5
tmux -L "$S" -f /dev/null new-session -d -x 100 -y 30 \
  "WALLBOARD_HOME='$3' '$2' run --display term --source sim --tz UTC --no-journal 2>'$D/err'; echo \$? >'$D/status'; sleep 30" \
  </dev/null >/dev/null 2>&1
i=0; while [ $i -lt 200 ]; do tmux -L "$S" capture-pane -p 2>/dev/null | grep -q '▀' && break; sleep 0.1; i=$((i+1)); done
sleep 0.3
tmux -L "$S" send-keys "$4" </dev/null >/dev/null 2>&1
i=0; while [ $i -lt 100 ] && [ ! -s "$D/status" ]; do sleep 0.1; i=$((i+1)); done
# A board the key did not end is stopped with Ctrl-C (SIGINT; kill-server's SIGHUP would only
# reload it).
if [ ! -s "$D/status" ]; then
  tmux -L "$S" send-keys C-c </dev/null >/dev/null 2>&1
  i=0; while [ $i -lt 50 ] && [ ! -s "$D/status" ]; do sleep 0.1; i=$((i+1)); done
  r=none
else
  r=$(cat "$D/status")
fi
tmux -L "$S" kill-server </dev/null >/dev/null 2>&1
echo "$r"
