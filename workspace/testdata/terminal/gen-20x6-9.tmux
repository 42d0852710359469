20 6 0 0

[38;2;92;35;195m日u~j[4:2mbetawrap
[0m[39m[49m             [4:2m[38;2;92;35;195mxalph[41mlm
mmmmmmmmmmmmmmmmmmm[42mx
cd[0m[39m[40m         [49m         

