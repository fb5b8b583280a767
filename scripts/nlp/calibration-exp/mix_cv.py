"""Cross-fitted: calibration fitted on both out-of-fold triple sets (committed and fold taggers), read on each."""
import sys
from calx import *  # noqa: F403
def run(fit_sets, evalf, reps=3):
    a = [t for f in fit_sets for t in load(f)]; b = load(evalf)
    return mean_scores([crossfit(b, 'platt', rep=r, fit_ts=a, copies=len(fit_sets)) for r in range(reps)])
s = sys.argv[1]
for ev in (f'ooff{s}.jsonl', f'oof{s}.jsonl'):
    avg = run([f'oof{s}.jsonl', f'ooff{s}.jsonl'], ev)
    print(f"seed {s} calibrated on both triple sets -> held-out {ev}: " + show(avg), flush=True)
