"""Runs a command in a pseudo-terminal and plays a keystroke script against it.

Usage: python3 ptyDrive.py SCRIPT_JSON -- COMMAND...
SCRIPT_JSON is a list of steps: {"wait": "text", "timeout": seconds} waits until the (ANSI-free)
output contains the text after the previous wait's match; {"send": "keys"} types keys (\\r is
Enter, \\x1b is Esc, \\t is Tab); {"sleep": seconds}; {"exited": seconds} waits until the command
exits by itself, and ends the script. Prints the whole ANSI-free output, then exits with 0, 3 when
a wait (or "exited") timed out, or 4 when the command exited with a status other than 0 at an
"exited" step (the output so far is printed either way).
"""
import json, os, pty, re, select, signal, sys, time

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\r")

def main():
    sep = sys.argv.index("--")
    steps = json.loads(sys.argv[1])
    command = sys.argv[sep + 1:]
    pid, fd = pty.fork()
    if pid == 0:
        os.environ["COLUMNS"] = "200"
        os.execvp(command[0], command)
    raw = b""
    def pump(seconds):
        nonlocal raw
        end = time.time() + seconds
        while time.time() < end:
            ready, _, _ = select.select([fd], [], [], 0.05)
            if ready:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    return False
                if not chunk:
                    return False
                raw += chunk
        return True
    def text():
        return ANSI.sub("", raw.decode("utf-8", "replace"))
    seen = 0
    code = 0
    exited = False
    for step in steps:
        if "exited" in step:
            deadline = time.time() + step["exited"]
            status = None
            while status is None and time.time() < deadline:
                if not pump(0.1):
                    time.sleep(0.05)  # the terminal closed: only the exit status is left to see
                done, raw_status = os.waitpid(pid, os.WNOHANG)
                if done:
                    status = os.waitstatus_to_exitcode(raw_status)
            if status is None:
                sys.stderr.write("timed out waiting for the command to exit\n")
                code = 3
            else:
                exited = True
                if status != 0:
                    sys.stderr.write("the command exited with %d\n" % status)
                    code = 4
            break
        if "send" in step:
            os.write(fd, step["send"].encode())
        elif "sleep" in step:
            pump(step["sleep"])
        elif "wait" in step:
            deadline = time.time() + step.get("timeout", 20)
            alive = True
            while step["wait"] not in text()[seen:]:
                if not alive or time.time() > deadline:
                    code = 3
                    break
                alive = pump(0.1)
            if code:
                sys.stderr.write("timed out waiting for %r\n" % step["wait"])
                break
            seen = text().index(step["wait"], seen) + len(step["wait"])
    pump(0.5)
    if not exited:
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        pump(0.5)
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass
    sys.stdout.write(text())
    sys.exit(code)

main()
