"""Start-up cost of short-lived commands, interleaved so that the shared machine's load drifts
over all of them alike: per command, the wall time from spawn to its first byte on stdout and
the CPU time (user + system, from wait4) of the whole process, p50 and min.

    python3 bench/spawn-cpu.py RUNS STDIN 'cmd one' 'cmd two' ...

Node has no child rusage, hence Python. Used for the Hook entries (bench/RESULTS.md)."""
import os, shlex, statistics, subprocess, sys, time

runs, stdin, cmds = int(sys.argv[1]), sys.argv[2].encode(), [shlex.split(c) for c in sys.argv[3:]]
results = [([], []) for _ in cmds]
for _ in range(runs):
    for (walls, cpus), cmd in zip(results, cmds):
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        p.stdin.write(stdin)
        p.stdin.close()
        p.stdout.read(1)
        walls.append((time.perf_counter() - t0) * 1000)
        p.stdout.read()
        _, _, usage = os.wait4(p.pid, 0)
        p.returncode = 0
        cpus.append((usage.ru_utime + usage.ru_stime) * 1000)
for (walls, cpus), cmd in zip(results, cmds):
    print(f"| `{' '.join(cmd)}` | {statistics.median(walls):.0f} / {min(walls):.0f} ms "
          f"| {statistics.median(cpus):.0f} / {min(cpus):.0f} ms |")
print("load average: %.2f %.2f %.2f" % os.getloadavg())
