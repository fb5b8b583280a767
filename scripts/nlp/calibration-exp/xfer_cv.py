"""Cross-fitted: calibration (and thresholds) fitted on the triples of `fitfile` in 4/5 of the documents,
applied to the held-out documents' triples of `evalfile` (over the fold taggers' entities)."""
import sys
from calx import *  # noqa: F403
def run(fitf, evalf, reps=3):
    a, b = load(fitf), load(evalf)
    return mean_scores([crossfit(b, 'platt', rep=r, fit_ts=a) for r in range(reps)])
s = sys.argv[1]
for name, fitf in (('current (in-sample tagger)', f'oof{s}.jsonl'), ('fold taggers', f'ooff{s}.jsonl')):
    avg = run(fitf, f'ooff{s}.jsonl')
    print(f"seed {s} calibrated on {name:27s} -> held-out fold-tagger triples: " + show(avg), flush=True)
