"""A first-version Hub engine (the dialect of Scan 2.0) for rafle's tests.

    python3 fake_hub_v1.py -- COMMAND...

It answers the first Hub (`hub` -> `name ...` ... `wait`, `init` -> `ready`,
`new`, `pos <position>` with a lower-case side to move, `depth N`, `time MS`,
`level MOVES MS INC_MS`, `go` -> `move <move>`) by asking a Hub 2 engine
(COMMAND) for its moves. A line of the second version (`pos pos=...`,
`level key=value`) gets `error bad position` or `error bad level`, as Scan
2.0 answers what it cannot read; other commands are ignored, as there.
"""

import subprocess
import sys

command = sys.argv[sys.argv.index("--") + 1 :]
engine = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def tell(line):
    engine.stdin.write(line + "\n")
    engine.stdin.flush()


def answer_to(word):
    """The engine's lines up to the one starting with `word`, the last one."""
    for line in engine.stdout:
        if line.split()[:1] == [word]:
            return line
    sys.exit(4)


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    word, args = words[0], words[1:]
    if word == "hub":
        tell("hub")
        answer_to("wait")
        for out in ["name Fake 1.0", "author rafle tests", "country nowhere", "wait"]:
            say(out)
    elif word == "init":
        tell("init")
        answer_to("ready")
        say("ready")
    elif word == "new":
        tell("new-game")
    elif word == "pos":
        if len(args) != 1 or "=" in args[0] or args[0][:1] not in ("w", "b"):
            say("error bad position")
        else:
            tell("pos pos=" + args[0][0].upper() + args[0][1:])
    elif word == "depth":
        tell("level depth=" + args[0])
    elif word == "time":
        tell("level move-time=%.3f" % (int(args[0]) / 1000))
    elif word == "level":
        if len(args) != 3 or any(not a.isdigit() for a in args):
            say("error bad level")
        else:
            tell("level time=%.3f" % (int(args[1]) / 1000))
    elif word == "go":
        tell("go think")
        done = answer_to("done")
        move = done.split("move=")[1].split()[0]
        say("move " + move)
    elif word == "quit":
        tell("quit")
        break
