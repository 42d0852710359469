80 24 0 0
[1;4:2m[38;2;67;96;247m[43malpha 日本xstop日本 █ -│stop語stopü
[0;1m[39m[49malpha █x│wrap stop語wrap │日本語[0m[39m[49m                                              [1ma[4:2mü
beta-wrap█ wrapbeta█alpha-




[0m[39m[49m                                                                              [1;4:2m[38;2;67;96;247m[43m日






[0;1m[39m[49mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
wrap





[0m[39m[49m                                                                              [1;4:2mab

[0m[39m[49m                           [1;4:2m[46m🙂[43mxüxxbeta語│ x 日本 stop alpha日本 │-- ü alphaxstops
