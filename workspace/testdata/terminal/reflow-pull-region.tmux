40 8 1 6
2
3
4
top
5
6
X
bottom
