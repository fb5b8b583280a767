"""Cross-fitted: calibration fitted on both out-of-fold triple sets (committed and fold taggers), read on each."""
import sys
from calx import *  # noqa: F403
def run(fit_sets, evalf, reps=3, K=5):
    a = [t for f in fit_sets for t in load(f)]; b = load(evalf)
    res = []
    for r in range(reps):
        docs = sorted(set(t['doc'] for t in b)); random.Random(100 + r).shuffle(docs)
        fold = {d: k % K for k, d in enumerate(docs)}
        out = []
        for k in range(K):
            tr = [t for t in a if fold.get(t['doc'], -1) != k]; te = [t for t in b if fold[t['doc']] == k]
            g = {kk: v * (K - 1) / K * len(fit_sets) for kk, v in gold.items()}
            cal = fit(tr, 'platt'); th = thresholds(cal, tr, g)
            for t in te:
                c = apply(cal, t)
                if c >= th[t['type']]: out.append((c, t['y'], t['domain'], t['type']))
        res.append(score(out))
    return {dm: tuple(np.mean([x[dm][i] for x in res]) for i in range(3)) for dm in ('conll04', 'redocred')}
s = sys.argv[1]
for ev in (f'ooff{s}.jsonl', f'oof{s}.jsonl'):
    avg = run([f'oof{s}.jsonl', f'ooff{s}.jsonl'], ev)
    print(f"seed {s} calibrated on both triple sets -> held-out {ev}: " + ' '.join(f"{dm} ECE {avg[dm][0]:.4f} F1 {avg[dm][1]:.4f} n {avg[dm][2]:.0f}" for dm in avg), flush=True)
