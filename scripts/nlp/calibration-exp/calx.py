"""Cross-fitted comparison of relation calibrators on out-of-fold triples (dumped by train-relations)."""
import json, os, sys, math, random
import numpy as np
gold = json.load(open(os.environ.get('GOLD', 'gold.json')))
MIN_CUE = 40
def load(f):
    ts = [json.loads(l) for l in open(f) if l.strip()]
    ndoc = {}
    for t in ts: ndoc[t['doc']] = ndoc.get(t['doc'], 0) + 1
    for t in ts: t['nd'] = ndoc[t['doc']]
    return ts
def logit(s):
    s = np.clip(s, 1e-6, 1 - 1e-6); return np.log(s / (1 - s))
def fitlog(X, y, w, start):
    b = np.array(start, float)
    for _ in range(100):
        p = 1 / (1 + np.exp(-X @ b))
        g = X.T @ (w * (p - y)); H = (X * (w * p * (1 - p))[:, None]).T @ X + 1e-6 * np.eye(len(b))
        d = np.linalg.solve(H, g)
        def L(bb):
            u = X @ bb; return np.sum(w * (np.logaddexp(0, u) - y * u))
        cur = L(b); t = 1.0
        while t > 1e-6 and L(b - t * d) > cur: t /= 2
        if t <= 1e-6: break
        nb = b - t * d
        if cur - L(nb) < 1e-10: b = nb; break
        b = nb
    return b
class Map:
    def __init__(self, ts, method):
        self.method = method
        s = np.array([t['score'] for t in ts]); y = np.array([t['y'] for t in ts], float)
        w = np.ones(len(ts))
        if method in ('eqdom', 'eqdom_nd'):
            doms = [t['domain'] for t in ts]; cnt = {d: doms.count(d) for d in set(doms)}
            w = np.array([len(ts) / (len(cnt) * cnt[d]) for d in doms])
        X = self.feats(s, ts)
        self.b = fitlog(X, y, w, [1, 0] + [0] * (X.shape[1] - 2))
        # the committed maps are read on a 100-step grid at midpoints
    def feats(self, s, ts):
        cols = [logit(s), np.ones(len(s))]
        if self.method.endswith('nd'):
            cols.append(np.log1p(np.array([t['nd'] for t in ts], float)))
        return np.stack(cols, 1)
    def __call__(self, s, t):
        if self.method.endswith('nd'):
            x = np.array([logit((min(99, int(s * 100)) + 0.5) / 100), 1, math.log1p(t['nd'])])
        else:
            x = np.array([logit((min(99, int(s * 100)) + 0.5) / 100), 1])
        return round(1 / (1 + math.exp(-max(-50.0, min(50.0, float(x @ self.b))))), 5)
    def rising(self):
        lo = {'score': 0.005, 'nd': 5}; hi = {'score': 0.995, 'nd': 5}
        return self(0.995, hi) > self(0.005, lo)
def fit(ts, method):
    cal = {}
    anyc = [t for t in ts if t['cue']]
    pooled = Map(anyc, method) if anyc else None
    types = sorted(set(t['type'] for t in ts))
    for ty in types:
        tt = [t for t in ts if t['type'] == ty]
        plain = [t for t in tt if not t['cue'] and not t['via'] and not t['far']]
        cued = [t for t in tt if t['cue']]; via = [t for t in tt if t['via']]
        far = [t for t in tt if t['far'] and not t['cue'] and not t['via']]
        cal[ty] = Map(plain if len(plain) >= MIN_CUE else [t for t in tt if not t['cue']], method)
        cm = Map(cued, method) if len(cued) >= MIN_CUE else pooled
        if cm: cal[ty + '*'] = cm
        if len(via) >= MIN_CUE:
            m = Map(via, method)
            if m.rising(): cal[ty + '+'] = m
        if len(far) >= MIN_CUE and len(plain) >= MIN_CUE:
            m = Map(far, method)
            if m.rising(): cal[ty + '~'] = m
    return cal
def apply(cal, t):
    m = (cal.get(t['type'] + '+') if t['via'] else None) or (cal.get(t['type'] + '*') if t['cue'] else None) \
        or (cal.get(t['type'] + '~') if t['far'] else None) or cal.get(t['type'])
    return m(t['score'], t) if m else t['score']
def thresholds(cal, ts, goldc):
    th = {}
    for ty in sorted(set(t['type'] for t in ts)):
        tt = [(apply(cal, t), t['y'], t['domain']) for t in ts if t['type'] == ty]
        doms = [d for d in sorted(set(t['domain'] for t in ts)) if goldc.get(d + '|' + ty, 0) > 0]
        best, bf = 0.5, -1; x = 0.04
        while x < 0.9:
            sm = 0
            for dm in doms:
                tp = sum(1 for c, y, d in tt if d == dm and c >= x and y); fp = sum(1 for c, y, d in tt if d == dm and c >= x and not y)
                p = tp / max(1, tp + fp); r = tp / max(1, goldc[dm + '|' + ty]); sm += 2 * p * r / (p + r) if p + r else 0
            f = sm / max(1, len(doms))
            if f > bf + 1e-9: bf, best = f, round(x, 2)
            x += 0.02
        th[ty] = 0.1 if bf < 0.05 else best
    return th
def ece(c, y, bins=10):
    s = [0] * bins; h = [0] * bins; n = [0] * bins
    for p, o in zip(c, y):
        b = min(bins - 1, int(p * bins)); s[b] += p; h[b] += o; n[b] += 1
    return sum(abs(s[b] - h[b]) / len(c) for b in range(bins) if n[b]) if c else 0
def score(rep):
    out = {}
    for dm in ('conll04', 'redocred'):
        r = [(c, y) for c, y, d, ty in rep if d == dm]
        tp = sum(y for _, y in r); fp = len(r) - tp; g = sum(v for k, v in gold.items() if k.startswith(dm + '|'))
        p = tp / max(1, tp + fp); rc = tp / g
        out[dm] = (ece([c for c, _ in r], [y for _, y in r]), 2 * p * rc / (p + rc), len(r))
    return out
def insample(ts, method):
    cal = fit(ts, method); th = thresholds(cal, ts, gold)
    return score([(apply(cal, t), t['y'], t['domain'], t['type']) for t in ts if apply(cal, t) >= th[t['type']]])
def crossfit(ts, method, K=5, rep=0, fit_ts=None, copies=1):
    """For each fifth of the documents of `ts` (split by `rep`), the calibration and thresholds fitted on the triples of
    the other four fifths, read on that fifth's triples of `ts`. The fitted triples are taken from `fit_ts` (default
    `ts`), which may hold `copies` triple sets of the same documents: the gold counts the thresholds aim at scale with it."""
    fit_ts = ts if fit_ts is None else fit_ts
    docs = sorted(set(t['doc'] for t in ts)); random.Random(100 + rep).shuffle(docs)
    fold = {d: k % K for k, d in enumerate(docs)}
    out = []
    for k in range(K):
        tr = [t for t in fit_ts if fold.get(t['doc'], -1) != k]; te = [t for t in ts if fold[t['doc']] == k]
        cal = fit(tr, method); th = thresholds(cal, tr, {kk: v * (K - 1) / K * copies for kk, v in gold.items()})
        for t in te:
            c = apply(cal, t)
            if c >= th[t['type']]: out.append((c, t['y'], t['domain'], t['type']))
    return score(out)
def mean_scores(scores):
    """Each figure of `score`'s results averaged over repetitions."""
    return {dm: tuple(np.mean([x[dm][i] for x in scores]) for i in range(3)) for dm in ('conll04', 'redocred')}
def show(avg):
    """The averaged figures as the scripts print them."""
    return ' '.join(f"{dm} ECE {avg[dm][0]:.4f} F1 {avg[dm][1]:.4f} n {avg[dm][2]:.0f}" for dm in avg)
if __name__ == '__main__':
    methods = sys.argv[2].split(',') if len(sys.argv) > 2 else ['platt', 'eqdom', 'nd', 'eqdom_nd']
    reps = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    ts = load(sys.argv[1])
    for m in methods:
        ins = insample(ts, m)
        cf = [crossfit(ts, m, rep=r) for r in range(reps)]
        print(f"{sys.argv[1].split('/')[-1]} {m:9s} in-sample " + ' '.join(f"{dm} ECE {ins[dm][0]:.4f} F1 {ins[dm][1]:.4f} n {ins[dm][2]}" for dm in ins)
              + " | cross-fitted " + show(mean_scores(cf)), flush=True)
