80 24 0 0



[33m[41m語-é stop中文語wrap betaü 
[31mxü█ │中文 語 stopx 


[39m[49m                                                                              [35m[41m日














[39m[49m                                  [35m[41m中文 日本語ü stop beta 日本█語xalpha│- beta█│a
lpha
