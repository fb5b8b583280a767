"""Noise of the 10-bin ECE: outcomes drawn from the reported confidences (TEA_REL_CONF_DUMP), 1,000 times."""
import json,random,sys
def ece(c,y,bins=10):
    s=[0]*bins;h=[0]*bins;n=[0]*bins
    for p,o in zip(c,y):
        b=min(bins-1,int(p*bins)); s[b]+=p;h[b]+=o;n[b]+=1
    return sum(abs(s[b]-h[b])/len(c) for b in range(bins) if n[b])
d=json.load(open(sys.argv[1]))
c=[x['conf'] for x in d]; y=[1 if x['correct'] else 0 for x in d]
obs=ece(c,y)
rnd=random.Random(1)
sims=sorted(ece(c,[1 if rnd.random()<p else 0 for p in c]) for _ in range(1000))
q=lambda f: sims[int(f*len(sims))]
print(f"n={len(c)} observed ECE {obs:.4f}; calibrated-score ECE: mean {sum(sims)/len(sims):.4f} median {q(.5):.4f} p10 {q(.1):.4f} p90 {q(.9):.4f} p95 {q(.95):.4f}; P(>0.05) {sum(s>0.05 for s in sims)/len(sims):.3f}; P(>=obs) {sum(s>=obs for s in sims)/len(sims):.3f}")
print(f"mean conf {sum(c)/len(c):.4f} accuracy {sum(y)/len(y):.4f}")
