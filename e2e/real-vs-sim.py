#!/usr/bin/env python3
"""The simulator against a real Kafka Streams deployment.

Reads the timelines the live tests wrote (bindings/java/target/e2e/SCENARIO-ASSIGNOR.json: a
scale-out from 2 to 4 instances, and a crash, restart and graceful stop among 3, each run with
smoothscale's kip441 and with Kafka's default assignor on a real broker), writes for each run the
simulator scenario with the run's configuration and measured rates, runs `smoothscale simulate`
with kip441 (the algorithm both real assignors run), and prints the real and simulated figures
side by side as a Markdown table.

    python3 e2e/real-vs-sim.py           # compare the timelines of the last `mvn verify -Plive`
    python3 e2e/real-vs-sim.py --run     # run the live tests first (a real broker, about 5 minutes)
    python3 e2e/real-vs-sim.py --bundle  # also write the kip441 runs' scenarios to simulations/

Scenarios, summaries and the table go to target/real-vs-sim/. Standard library only.
"""

import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIMELINES = os.path.join(ROOT, "bindings", "java", "target", "e2e")
OUT = os.path.join(ROOT, "target", "real-vs-sim")
SCENARIOS = ["scale-out", "churn"]
# The live tests that write those timelines (--run runs these alone, not every live test).
LIVE_TESTS = ["LiveScaleOutTest", "LiveChurnTest"]
ASSIGNORS = [("kip441", "smoothscale kip441"), ("kafka", "Kafka's default (HighAvailabilityTaskAssignor)")]


def fail(message):
    print(f"real-vs-sim: {message}", file=sys.stderr)
    sys.exit(2)


def load(scenario, assignor):
    path = os.path.join(TIMELINES, f"{scenario}-{assignor}.json")
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except FileNotFoundError:
        fail(f"{path} is missing: run the live tests first (this script's --run, or ./run-tests --long)")


def restore_rate(real):
    """Records/s a replica restores: the replicas' catch-up rate, else the actives' restorations."""
    rate = real["replica_catch_up"]["rate"] or real["active_restore_rate"]
    if rate is None:
        fail(f"{real['scenario']}-{real['assignor']}: no restoration was timed, so no restore rate")
    return max(1, round(rate))


def scenario_toml(real):
    """The simulator scenario of one real run: its configuration, measured rates and events."""
    c = real["config"]
    name = f"live-{real['scenario']}"
    seconds = real["duration_ms"] / 1000
    tasks = c["tasks"]
    log = real["changelog_records"]
    state = round(log["start"] / tasks)
    write = round((log["end"] - log["start"]) / tasks / seconds)
    rate = restore_rate(real)
    lines = [
        f"# Written by e2e/real-vs-sim.py from the live run {real['scenario']}-{real['assignor']}.json:",
        f"# {c['instances']} instances, {tasks} stateful tasks, state {state} records per task at the start,",
        f"# changelog writes {write} records/s per task, replicas restoring {rate} records/s (measured),",
        f"# session timeout {c['session_timeout_ms']} ms, probing every {c['probing_rebalance_interval_ms']} ms;",
        "# events at the moments the test scripted them. simulations/README.md sets the run and this",
        "# scenario side by side and names what the simulator models differently.",
        "",
        f'name = "{name}"',
        f'description = "The live {real["scenario"]} run on a real broker, as the simulator sees it"',
        "seed = 1",
        f"duration = {real['duration_ms']}",
        'step = "1s"',
        'sample_every = "1s"',
        'strategies = ["kip441"]',
        "",
        "[cluster]",
        f"clients = {c['instances']}",
        f"threads = {c['threads']}",
        f"restore_rate = {rate}",
        f"session_timeout = {c['session_timeout_ms']}",
        'protocol = "cooperative"',
        "",
        "[[subtopologies]]",
        f"partitions = {tasks}",
        "stateful = true",
        f"state_records = {state}",
        f"write_rate = {write}",
        "",
        "[config]",
        f"num_standby_replicas = {c['num_standby_replicas']}",
        f"acceptable_recovery_lag = {c['acceptable_recovery_lag']}",
        f"max_warmup_replicas = {c['max_warmup_replicas']}",
        f"probing_rebalance_interval = {c['probing_rebalance_interval_ms']}",
    ]
    for event in real["scripted"]:
        lines += ["", "[[events]]", f"at = {event['t_ms']}"]
        kind, detail = event["kind"], event["detail"]
        if kind == "scale_out":
            lines += ['kind = "scale_out"', f"count = {detail.split('=')[1]}"]
        elif kind == "scale_in":
            # The simulator's scale-in removes the highest-numbered member; the live test stops that one.
            lines += ['kind = "scale_in"', "count = 1"]
        elif kind == "crash":
            # Under exactly-once a store written by a killed instance has no checkpoint: on restart Kafka
            # Streams wipes it and restores from the changelog's start, as a crash that loses its state.
            lines += ['kind = "crash"', f'client = "c{detail[1:]}"', "lose_state = true"]
        else:
            lines += [f'kind = "{kind}"', f'client = "c{detail[1:]}"']
    return "\n".join(lines) + "\n"


def simulate(name, toml):
    path = os.path.join(OUT, f"{name}.toml")
    with open(path, "w", encoding="utf-8") as f:
        f.write(toml)
    out = os.path.join(OUT, name)
    subprocess.run(
        ["cargo", "run", "--release", "--quiet", "--", "simulate", path, "--out", out],
        cwd=ROOT, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    with open(os.path.join(out, "summary.json"), encoding="utf-8") as f:
        return json.load(f)["strategies"]["kip441"]


def ratio(real, sim):
    if real is None or sim is None:
        return "–"
    if real == 0:
        return "=" if sim == 0 else "∞"
    return f"{sim / real:.2f}"


def fmt(value, digits=0):
    if value is None:
        return "never"
    return f"{value:,.{digits}f}"


def rows(real, sim):
    """(measure, real, simulated) for one run."""
    r, s = real["rebalances"], sim["rebalances"]
    settle = real["actives_settled_ms_after_last_event"] / 1000
    return [
        ("rebalances (total)", r["total"], s["total"], 0),
        ("  membership", r["membership"], s["membership"], 0),
        ("  probing", r["probing"], s["probing"], 0),
        ("  follow-ups without a membership change (real) / caught-up (sim)", r["follow_up"], s["caught_up"], 0),
        ("rounds (real: group generations; sim: one per rebalance)", r["rounds"], s["total"], 0),
        ("actives settled (real) / converged (sim) after the last event (s)", settle, sim["time_to_converge_s"], 1),
        ("records restored by actives", real["records_restored"]["active"], sim["restored_records"]["active"], 0),
        ("records loaded by standbys and warm-ups", real["records_restored"]["replica"],
         sim["restored_records"]["replica"], 0),
        ("unavailable (task-s)", real["unavailable"]["task_s"], sim["unavailable_task_s"]["total"], 1),
        ("longest outage of one task (s)", real["unavailable"]["max_outage_ms"] / 1000, sim["max_outage_s"], 1),
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--run", action="store_true", help="run the live tests first (mvn, a real broker)")
    parser.add_argument("--bundle", action="store_true",
                        help="write the kip441 runs' scenarios to simulations/live-SCENARIO.toml")
    args = parser.parse_args()
    if args.run:
        subprocess.run(
            ["cargo", "build", "--release", "--quiet", "-p", "smoothscale-jni"], cwd=ROOT, check=True)
        subprocess.run(
            ["mvn", "-B", "-ntp", "-f", "bindings/java/pom.xml", "test", "-Plive",
             "-Dtest=" + ",".join(LIVE_TESTS)], cwd=ROOT, check=True)
    os.makedirs(OUT, exist_ok=True)
    table = []
    for scenario in SCENARIOS:
        for assignor, label in ASSIGNORS:
            real = load(scenario, assignor)
            toml = scenario_toml(real)
            sim = simulate(f"live-{scenario}-{assignor}", toml)
            if args.bundle and assignor == "kip441":
                with open(os.path.join(ROOT, "simulations", f"live-{scenario}.toml"), "w", encoding="utf-8") as f:
                    f.write(toml)
            table.append(f"\n**{scenario}, {label}** ({real['duration_ms'] / 1000:.0f} s; "
                         f"restore rate {restore_rate(real):,} rec/s)\n")
            table.append("| measure | real | simulated | simulated / real |")
            table.append("|---|---:|---:|---:|")
            for name, real_value, sim_value, digits in rows(real, sim):
                table.append(f"| {name} | {fmt(real_value, digits)} | {fmt(sim_value, digits)} | "
                             f"{ratio(real_value, sim_value)} |")
    text = "\n".join(table) + "\n"
    with open(os.path.join(OUT, "table.md"), "w", encoding="utf-8") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
