40 12 3 6
ab
cd
ef
gh
ij
kl
$ X





