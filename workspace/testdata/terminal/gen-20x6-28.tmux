20 6 0 0
[38;5;242m[40mtop wrap betaalphawr
ap é[4m-日本 alpha │üuu
uuuuuuuuuuuuuuuuuuuu
uu█ 中文 alpha中文 é
 ébeta alphaé │ alph
ax ộ
