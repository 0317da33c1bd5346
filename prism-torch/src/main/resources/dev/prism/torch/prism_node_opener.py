# Run by srun on each node of a multi-node torch job, as `python -I -c <this> RUN_DIRECTORY TOKEN -- COMMAND…` (never
# from a file: on another node, a file in the run directory would be reached by its name). It opens the run directory
# once, without following a link at its end, and checks on the descriptor that it is this user's (another user cannot
# make a directory of root's) and holds in torch/node-token the TOKEN of this job (so no other directory of this user,
# such as another run's, is taken for it; the token names the job, it is no secret: it is on the command line). It
# keeps the descriptor open across exec, changes the working directory to the torch directory through it, and runs
# COMMAND with every argument and environment value that is PLACEHOLDER or begins with PLACEHOLDER/ pointed at
# /proc/<pid>/fd/<fd>: torchrun's agent, which keeps this pid, and its workers then reach the directory this run made,
# whatever another user renames above it.
import os
import sys

PLACEHOLDER = "/.prism-held-run-directory"


def refuse(why):
    sys.stderr.write("prism: node %s: %s\n" % (os.uname().nodename, why))
    sys.exit(70)


def main(argv):
    if len(argv) < 4 or argv[2] != "--":
        refuse("usage: RUN_DIRECTORY TOKEN -- COMMAND...")
    run_directory, token, command = argv[0], argv[1], argv[3:]
    try:
        fd = os.open(run_directory, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except OSError as e:
        refuse("open(%r, O_DIRECTORY|O_NOFOLLOW): %s (%s)" % (run_directory, e.strerror, e.errno))
    owner = os.fstat(fd).st_uid
    if owner != os.getuid():
        refuse("%r is owned by uid %d, not by this user (uid %d): not the directory this run made"
               % (run_directory, owner, os.getuid()))
    try:
        torch = os.open("torch", os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
        kept = os.open("node-token", os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=torch)
        try:
            seen = os.read(kept, 256).decode("ascii", "replace").strip()
        finally:
            os.close(kept)
    except OSError as e:
        refuse("%r/torch/node-token: %s (%s)" % (run_directory, e.strerror, e.errno))
    if seen != token:
        refuse("%r holds another run's token: not the directory this run made" % (run_directory,))
    # the agent's own working directory, through the descriptor (srun was told --chdir=/, never the directory's name)
    os.fchdir(torch)
    os.close(torch)
    os.set_inheritable(fd, True)
    held = "/proc/%d/fd/%d" % (os.getpid(), fd)

    def pointed(value):
        if value == PLACEHOLDER or value.startswith(PLACEHOLDER + "/"):
            return held + value[len(PLACEHOLDER):]
        return value

    environment = {k: pointed(v) for k, v in os.environ.items()}
    os.execve(command[0], [pointed(a) for a in command], environment)


main(sys.argv[1:])
