#!/usr/bin/env python3
"""A CPU model of the TMA load (box elements in order, 16-byte chunks swizzled by address bits [7:9]) run
over tma_placement_cases.txt: an independent check of the placements cute_sym predicts, no GPU needed.

    python3 benchmarks/gpu/tma_emulate.py benchmarks/gpu/tma_placement_cases.txt
"""
import sys
f=open(sys.argv[1]); toks=f.read().split(); i=0
def nxt():
    global i; i+=1; return toks[i-1]
n=int(nxt()); ok=0
for _ in range(n):
    assert nxt()=='case'; name=nxt(); nb=int(nxt()); rank=int(nxt()); gsize=int(nxt()); swn=nxt()
    nxt(); gdim=[int(nxt()) for _ in range(rank)]
    nxt(); gstr=[int(nxt()) for _ in range(rank-1)]
    nxt(); box=[int(nxt()) for _ in range(rank)]
    nxt(); swz=int(nxt())
    nxt(); nops=int(nxt()); ops=[[int(nxt()) for _ in range(rank+1)] for _ in range(nops)]
    nxt(); m=int(nxt()); exp=[int(nxt()) for _ in range(m)]; assert nxt()=='end'
    strides=[nb]+gstr
    smem=[-1]*m
    tot=1
    for b in box: tot*=b
    for op in ops:
        off=op[0]; c=op[1:]
        for e in range(tot):
            r=e; co=[]
            for b in box: co.append(r%b); r//=b
            g=[a+b for a,b in zip(c,co)]
            if any(x>=d or x<0 for x,d in zip(g,gdim)): val=None
            else: val=sum(x*s for x,s in zip(g,strides))//nb
            a=off+e*nb
            if swz==3: a^=((a>>7)&7)<<4
            elif swz==2: a^=((a>>7)&3)<<4
            elif swz==1: a^=((a>>7)&1)<<4
            smem[a//nb]=val
    bad=sum(1 for x,y in zip(smem,exp) if x!=y)
    print(name, 'OK' if bad==0 else f'BAD {bad}/{m}')
    ok+= bad==0
print(ok,'/',n)
