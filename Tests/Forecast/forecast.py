"""An independent Monte Carlo forecast, to check the board's (Sources/Projections/Forecast.swift).

Reads a JSON job on stdin, prints the forecast as JSON. Written from the rules in the doc
comment of `Forecast.compute`, not from its code:
  today: "YYYY-MM-DD" (the date of the board's moment, in UTC here)
  done: [[feature, "YYYY-MM-DD"], ...]  every move into a done state (a feature once a day)
  history_from: "YYYY-MM-DD", the first day the board has history for (no day before is sampled)
  non_working: weekday numbers (Monday 0) when a sprint is given; holidays: dates
  sprint: true / false; remaining: features left; runs, seed, sample_days.
"""

import datetime
import json
import sys

MASK = (1 << 64) - 1


class SplitMix64:
    def __init__(self, seed):
        self.state = seed & MASK

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)


class Draws:
    """Two indices from each output: the high 32 bits, then the low 32 bits."""

    def __init__(self, seed):
        self.rng = SplitMix64(seed)
        self.spare = None

    def index(self, n):
        if self.spare is not None:
            half, self.spare = self.spare, None
        else:
            x = self.rng.next()
            half, self.spare = x >> 32, x & 0xFFFFFFFF
        return (half * n) >> 32


def ceil_pct(p, n):
    return -(-p * n // 100)


def main():
    job = json.load(sys.stdin)
    day = datetime.date.fromisoformat
    today = day(job["today"])
    if job["sprint"]:
        off = set(job["non_working"])
        holidays = {day(h) for h in job["holidays"]}
        working = lambda d: d.weekday() not in off and d not in holidays
    else:
        working = lambda d: d.weekday() < 5
    sampled = []
    d = today
    first = day(job["history_from"]) if job.get("history_from") else today
    while len(sampled) < job["sample_days"]:
        d -= datetime.timedelta(days=1)
        if d < first:
            break
        if working(d):
            sampled.append(d)
    sampled.reverse()
    per_day = {}
    for _feature, when in {tuple(x) for x in job["done"]}:
        per_day[day(when)] = per_day.get(day(when), 0) + 1
    tp = [per_day.get(s, 0) for s in sampled]
    out = {
        "sampled_from": sampled[0].isoformat() if sampled else None,
        "sampled_through": sampled[-1].isoformat() if sampled else None,
        "sample_days": len(tp),
        "sample_done": sum(tp),
    }
    rng = Draws(job["seed"])
    runs = job["runs"]
    remaining = job["remaining"]
    if job["sprint"] and remaining == 0:
        out["kind"] = "sprint_done"
    elif sum(tp) == 0:
        out["kind"] = "no_throughput"
    elif job["sprint"]:
        ahead = []
        d = today
        while len(ahead) < 365:
            d += datetime.timedelta(days=1)
            if working(d):
                ahead.append(d)
        finish = []
        for _ in range(runs):
            total = 0
            at = None
            for i in range(len(ahead)):
                total += tp[rng.index(len(tp))]
                if total >= remaining:
                    at = i
                    break
            finish.append(len(ahead) if at is None else at)
        finish.sort()
        p50 = finish[ceil_pct(50, runs) - 1]
        p85 = finish[ceil_pct(85, runs) - 1]
        out["remaining"] = remaining
        if p85 == len(ahead):
            out["kind"] = "beyond_horizon"
            out["p50_date"] = ahead[p50].isoformat() if p50 < len(ahead) else None
            out["p85_date"] = ahead[-1].isoformat()
        else:
            out["kind"] = "sprint"
            out["p50_date"] = ahead[p50].isoformat()
            out["p85_date"] = ahead[p85].isoformat()
    else:
        days = sum(1 for k in range(1, 15) if working(today + datetime.timedelta(days=k)))
        sums = sorted(sum(tp[rng.index(len(tp))] for _ in range(days)) for _ in range(runs))
        out["kind"] = "backlog"
        out["p50_features"] = sums[ceil_pct(50, runs) - 1]
        out["p85_features"] = sums[runs - ceil_pct(85, runs)]
    json.dump(out, sys.stdout, sort_keys=True)


main()
