"""Runs a command with its standard output on a pseudo-terminal of the given width, as a terminal
user sees it: run-in-pty.py COLUMNS COMMAND [ARG…]. COLUMNS is removed from the environment, so
the program has to ask the terminal (TIOCGWINSZ). Prints what the terminal received, CR LF as LF."""
import fcntl, os, struct, subprocess, sys, termios

columns = int(sys.argv[1])
master, slave = os.openpty()
fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
env = dict(os.environ)
env.pop("COLUMNS", None)
p = subprocess.Popen(sys.argv[2:], stdin=subprocess.DEVNULL, stdout=slave, stderr=subprocess.PIPE, env=env)
os.close(slave)
out = b""
while True:
    try:
        chunk = os.read(master, 65536)
    except OSError:
        break
    if not chunk:
        break
    out += chunk
err = p.stderr.read()
code = p.wait()
sys.stdout.write(out.decode("utf-8", "replace").replace("\r\n", "\n"))
sys.stderr.write(err.decode("utf-8", "replace"))
sys.exit(code)
