#!/bin/sh
# Runs the board in a 120x40 pane of its own tmux server at a fixed moment, waits until the pane
# shows "Done" as characters, writes the pane's text (tmux capture-pane -p) to FOLDER/pane, then
# ends the board with q and prints its exit status ("none" when it had not ended 10 s later).
# Usage: capture-board.sh SOCKET BINARY WALLBOARD_HOME FOLDER AT
S=$1; D=$4
tmux -L "$S" -f /dev/null new-session -d -x 120 -y 40 \
  "WALLBOARD_HOME='$3' '$2' run --display term --source sim:seed=1 --at '$5' --tz UTC --no-journal 2>'$D/err'; echo \$? >'$D/status'; sleep 30" \
  </dev/null >/dev/null 2>&1
i=0; while [ $i -lt 200 ]; do tmux -L "$S" capture-pane -p 2>/dev/null | grep -q 'Done' && break; sleep 0.1; i=$((i+1)); done
sleep 0.5
tmux -L "$S" capture-pane -p >"$D/pane" 2>/dev/null </dev/null
tmux -L "$S" send-keys q </dev/null >/dev/null 2>&1
i=0; while [ $i -lt 100 ] && [ ! -s "$D/status" ]; do sleep 0.1; i=$((i+1)); done
if [ ! -s "$D/status" ]; then
  tmux -L "$S" send-keys C-c </dev/null >/dev/null 2>&1
  i=0; while [ $i -lt 50 ] && [ ! -s "$D/status" ]; do sleep 0.1; i=$((i+1)); done
  r=none
else
  r=$(cat "$D/status")
fi
tmux -L "$S" kill-server </dev/null >/dev/null 2>&1
echo "$r"
