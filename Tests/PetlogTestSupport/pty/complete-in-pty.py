#!/usr/bin/env python3
"""Types a command line into a real interactive shell on a pseudo-terminal, presses TAB, then Enter, and
prints the words the command received (as JSON), so a test sees what completion inserted exactly as the
shell quoted it.

    complete-in-pty.py SHELL SETUP_FILE ARGS_FILE TYPED…

SHELL is bash, zsh or fish; SETUP_FILE is sourced first (it loads the completion script and puts a
`petlog` on PATH that writes its arguments, NUL-separated, to ARGS_FILE unless asked to complete, and
touches ARGS_FILE.completed each time a completion request has been answered);
each TYPED is what the user types before TAB (a TAB in it is pressed there too), one command line each, in one shell session. Prints a
JSON list with, for each, the list of arguments the command received (null when it never ran).

After each TAB the driver waits for the answer (ARGS_FILE.completed) and for the shell to finish drawing
it (its output quiet for a moment), not a fixed time: what is typed next waits in the terminal's queue
anyway, so the wait only keeps the transcript readable; a TAB no request answers waits at most 1.2 s.
"""
import json, os, pty, select, sys, time

shell, setup, args_file = sys.argv[1:4]
lines = sys.argv[4:]
READY = "READY>"


def command():
    if shell == "bash":
        return ["/bin/bash", "--norc", "--noprofile", "-i"]
    if shell == "zsh":
        return ["/usr/bin/zsh", "-f", "-i"]
    return ["/usr/bin/fish", "--no-config", "-i"]


def init():
    if shell == "bash":
        return f"PS1='{READY} '; bind 'set show-all-if-ambiguous on' 2>/dev/null; source {setup}\n"
    if shell == "zsh":
        return f"PS1='{READY} '; autoload -U compinit; compinit -u -D; source {setup}\n"
    return f"function fish_prompt; echo '{READY} '; end; source {setup}\n"


pid, fd = pty.fork()
if pid == 0:
    env = dict(os.environ, TERM="dumb" if shell != "fish" else "xterm", HISTFILE="/dev/null")
    os.execve(command()[0], command(), env)

output = b""


def read_for(seconds, until=None):
    global output
    end = time.time() + seconds
    while time.time() < end:
        r, _, _ = select.select([fd], [], [], 0.05)
        if r:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                return False
            output += chunk
            if until is not None and until in output.decode("utf-8", "replace"):
                return True
    return False


def send(text):
    os.write(fd, text.encode("utf-8"))


def read_until_quiet(quiet, longest):
    """Reads until the shell has written nothing for `quiet` seconds (at most `longest`)."""
    global output
    end = time.time() + longest
    while time.time() < end:
        r, _, _ = select.select([fd], [], [], quiet)
        if not r:
            return
        try:
            output += os.read(fd, 65536)
        except OSError:
            return


answered = args_file + ".completed"


def wait_for_answer(longest):
    """Waits until a completion request has been answered (the wrapper touches the file), at most `longest`."""
    end = time.time() + longest
    while time.time() < end:
        if os.path.exists(answered):
            os.unlink(answered)
            return True
        read_for(0.02)
    return False


# The shell's first words (a prompt, a terminal query), then the setup line.
read_for(1.5, until="")
read_until_quiet(0.1, 1.0)
send(init())
# Twice the prompt: the one after the setup line.
deadline = time.time() + 10
while output.decode("utf-8", "replace").count(READY) < 2 and time.time() < deadline:
    read_for(0.2)
results = []
for typed in lines:
    if os.path.exists(args_file):
        os.unlink(args_file)
    # A TAB inside TYPED is pressed there too (`petlog log \t\t`: complete, then complete again).
    for piece in typed.split("\t"):
        if os.path.exists(answered):
            os.unlink(answered)
        send(piece)
        read_until_quiet(0.05, 0.2)
        send("\t")
        if wait_for_answer(1.2):
            read_until_quiet(0.1, 1.0)
    send("\r")
    deadline = time.time() + 8
    ran = False
    while time.time() < deadline:
        if os.path.exists(args_file) and os.path.getsize(args_file) > 0:
            time.sleep(0.05)
            ran = True
            break
        read_for(0.05)
    if ran:
        data = open(args_file, "rb").read()
        results.append([w.decode("utf-8", "surrogateescape") for w in data.split(b"\0")[:-1]])
    else:
        results.append(None)
        send("\x03")
    read_until_quiet(0.05, 0.3)
send("exit\r")
read_for(0.5)
try:
    os.kill(pid, 9)
except OSError:
    pass
if all(r is None for r in results):
    sys.stderr.write(output.decode("utf-8", "replace")[-3000:])
print(json.dumps(results, ensure_ascii=False))
