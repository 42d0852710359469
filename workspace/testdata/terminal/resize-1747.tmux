50 10 0 9
[43mbbbbüwrapé 日本alpha-alphaalphaéwrap│xwrapwrap █│a
lpha  [49m                                 

é語│-日本語ü--ü █ beta 






