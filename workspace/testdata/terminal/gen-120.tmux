80 24 0 0
[4;5:3m中文beta x 日本█ x[0;4:2;5:3m[39m[49m│ wrap│中文alpha 中文語語 │ alpha wrap é 




[0m[39m[49m                                                                   [38;5;177mhhhhhhhhhhhhh
hhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhh
[39m                                                                              [38;5;177mcd

mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
[39m                  [38;5;32m[48;5;144mé







[39m[49m                                                                              [38;5;177mab

cd



