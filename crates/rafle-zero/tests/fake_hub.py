"""A misbehaving Hub engine for rafle's tests.

    python3 fake_hub.py MODE AFTER -- COMMAND...

It relays every line to a real Hub engine (COMMAND) and its answers back,
until the search numbered AFTER (0 is the first, counted over the process's
life), where MODE strikes: crash (exits with status 3), garbage (a done line
whose move is not a move), illegal (a well-formed move that is not legal),
silent (never answers, but keeps reading), late (answers only when told to
`stop`), error (a bare `error` line, as Hub engines before version 2 send). With FAKE_PID_FILE set it writes its pid there first.
"""

import os
import subprocess
import sys

mode, after = sys.argv[1], int(sys.argv[2])
command = sys.argv[sys.argv.index("--") + 1 :]
if os.environ.get("FAKE_PID_FILE"):
    with open(os.environ["FAKE_PID_FILE"], "w") as f:
        f.write(str(os.getpid()))
engine = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def relay_until(word):
    """The engine's lines up to the one starting with `word`."""
    lines = []
    for line in engine.stdout:
        lines.append(line)
        if line.split()[:1] == [word]:
            break
    return lines


searches = 0
held = []
for line in sys.stdin:
    engine.stdin.write(line)
    engine.stdin.flush()
    command_word = (line.split() or [""])[0]
    if command_word == "quit":
        break
    if command_word == "stop" and held:
        sys.stdout.write("".join(held))
        sys.stdout.flush()
        held = []
        continue
    answer_ends = {"hub": "wait", "init": "ready", "ping": "pong", "go": "done"}
    if command_word not in answer_ends:
        continue
    answers = relay_until(answer_ends[command_word])
    if command_word == "go":
        strike = searches == after
        searches += 1
        if strike:
            if mode == "crash":
                sys.stderr.write("fake: crashing on purpose\n")
                sys.stderr.flush()
                os._exit(3)
            elif mode == "garbage":
                answers = ["done move=banana\n"]
            elif mode == "illegal":
                answers = ["done move=1-2\n"]
            elif mode == "error":
                answers = ["error\n"]
            elif mode == "silent":
                answers = []
            elif mode == "late":
                held, answers = answers, []
    sys.stdout.write("".join(answers))
    sys.stdout.flush()
