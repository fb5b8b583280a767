"""Cross-fitted: calibration (and thresholds) fitted on the triples of `fitfile` in 4/5 of the documents,
applied to the held-out documents' triples of `evalfile` (over the fold taggers' entities)."""
import sys
from calx import *  # noqa: F403
def run(fitf, evalf, reps=3, K=5):
    a, b = load(fitf), load(evalf)
    res = []
    for r in range(reps):
        docs = sorted(set(t['doc'] for t in b)); random.Random(100 + r).shuffle(docs)
        fold = {d: k % K for k, d in enumerate(docs)}
        out = []
        for k in range(K):
            tr = [t for t in a if fold.get(t['doc'], -1) != k]; te = [t for t in b if fold[t['doc']] == k]
            cal = fit(tr, 'platt'); th = thresholds(cal, tr, {kk: v * (K - 1) / K for kk, v in gold.items()})
            for t in te:
                c = apply(cal, t)
                if c >= th[t['type']]: out.append((c, t['y'], t['domain'], t['type']))
        res.append(score(out))
    return {dm: tuple(np.mean([x[dm][i] for x in res]) for i in range(3)) for dm in ('conll04', 'redocred')}
s = sys.argv[1]
for name, fitf in (('current (in-sample tagger)', f'oof{s}.jsonl'), ('fold taggers', f'ooff{s}.jsonl')):
    avg = run(fitf, f'ooff{s}.jsonl')
    print(f"seed {s} calibrated on {name:27s} -> held-out fold-tagger triples: " + ' '.join(f"{dm} ECE {avg[dm][0]:.4f} F1 {avg[dm][1]:.4f} n {avg[dm][2]:.0f}" for dm in avg), flush=True)
